/**
 * How much sooner than sent a request may reach a loopback server's handler in the worst
 * case on a busy machine: the server's count is taken over a second this much shorter.
 */
export const ARRIVAL_JITTER_MS = 25;

/** The most times within any closed window of `windowMs` (a sliding second by default). */
export function mostInWindow(times: readonly number[], windowMs = 1_000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) > windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
