/**
 * A time limit owned by whoever starts it: a plain timer and an AbortController, both held
 * strongly until `dispose`. `AbortSignal.any([signal, AbortSignal.timeout(ms)])` looks the same,
 * but on Node 20 a garbage collection can drop the timeout signal it holds only weakly, and then
 * the abort never comes (measured: `--timeout 5` still running at 100 s under frequent GC).
 */
export interface Deadline {
  /** Aborts when any of the parents aborts or the time runs out, whichever comes first. */
  readonly signal: AbortSignal;
  /** True once the time ran out (rather than a parent aborting). */
  readonly expired: boolean;
  /** Stops the timer and lets go of the parents; the signal stays as it is. */
  dispose(): void;
}

/** The longest delay a Node timer can count; longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Starts a deadline `timeoutMs` from now (none when undefined) that also follows `parents`.
 * Dispose of it when the work it bounds is over, so that no timer keeps the process alive.
 */
export function startDeadline(
  parents: readonly (AbortSignal | undefined)[],
  timeoutMs: number | undefined,
): Deadline {
  const controller = new AbortController();
  let expired = false;
  const followed = parents.filter((parent): parent is AbortSignal => parent !== undefined);
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  const aborted = followed.find((parent) => parent.aborted);
  if (aborted) controller.abort(aborted.reason);
  else for (const parent of followed) parent.addEventListener('abort', onAbort, { once: true });

  let timer: NodeJS.Timeout | undefined;
  if (timeoutMs !== undefined && !controller.signal.aborted) {
    // The timer's callback holds the controller, and the pending timer is held by the event loop.
    timer = setTimeout(
      () => {
        expired = true;
        controller.abort(new DOMException('the time limit ran out', 'TimeoutError'));
      },
      Math.min(MAX_TIMER_MS, Math.max(0, Math.round(timeoutMs))),
    );
  }
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    dispose() {
      clearTimeout(timer);
      for (const parent of followed) parent.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Lets the timers already due fire (a deadline's among them) before the caller goes on: a run
 * whose steps all resolve at once (the offline judge) otherwise never reaches the event loop's
 * timers, and a deadline that came due while it worked would never abort it. A timer, not
 * `setImmediate`: timers fire in the order they came due, so when this one resolves, every timer
 * due before it has fired.
 */
export const letDueTimersFire = (): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, 0));
