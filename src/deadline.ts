/** The caller's signal, cut short after `timeoutSeconds` when one is set. */
export function withTimeout(
  signal: AbortSignal | undefined,
  timeoutSeconds: number | undefined,
): AbortSignal | undefined {
  if (timeoutSeconds === undefined) return signal;
  const timeout = AbortSignal.timeout(Math.round(timeoutSeconds * 1000));
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}
