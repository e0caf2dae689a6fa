/**
 * How long the browser waits before its next reconnect attempt: exponential, capped, with "equal
 * jitter" — half of the step is fixed and half random — so the tabs a server restart disconnected
 * together do not all come back in the same instant, yet none retries sooner than half its step.
 * Pure: `random` is injectable for tests.
 */
export type BackoffOptions = {
  /** the first step (attempt 1) */
  baseMs?: number;
  /** no step is longer than this */
  maxMs?: number;
  /** a number in [0, 1) */
  random?: () => number;
};

/** The delay before retry number `attempt` (1 for the first retry), in milliseconds. */
export function backoffDelay(
  attempt: number,
  { baseMs = 1_000, maxMs = 30_000, random = Math.random }: BackoffOptions = {},
): number {
  const exponent = Math.max(0, Math.min(Math.floor(attempt) - 1, 30));
  const step = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.round(step / 2 + random() * (step / 2));
}
