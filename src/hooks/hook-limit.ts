/**
 * Seconds a hook may take in all, unless `--timeout` says otherwise: well under the 60 s the
 * plugin's hooks.json allows it. The limit counts from the moment the process started, reading
 * the hook's input included: Claude Code waits for the answer.
 */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 30;

/**
 * The limit, in seconds, that a `--timeout` value gives the hook before its flags are checked
 * (its input is read first, to answer the calls that need no work at once): the default where
 * the value is not a number of seconds, which the check that follows then refuses.
 */
export function hookLimitSeconds(timeout: string | boolean | undefined): number {
  const seconds = typeof timeout === 'string' ? Number(timeout) : Number.NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_HOOK_TIMEOUT_SECONDS;
}
