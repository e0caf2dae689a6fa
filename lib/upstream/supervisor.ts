/**
 * When to try again after a connection fails. Exponential backoff with full jitter (so a fleet of
 * replicas doesn't retry in step); enough failures within a window mean a crash loop, where we
 * only re-probe slowly until a connect succeeds or an operator asks for a reconnect.
 */

export type SupervisionPolicy = {
  initialDelayMs: number;
  maxDelayMs: number;
  /** This many failures within `crashLoopWindowMs` → crash-loop. */
  crashLoopFailures: number;
  crashLoopWindowMs: number;
  /** Re-probe interval while in crash-loop. */
  crashLoopProbeMs: number;
  /** Failed health probes in a row (process alive, protocol silent) before the connection is rebuilt. */
  degradedProbeLimit: number;
};

export const defaultSupervisionPolicy: SupervisionPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  crashLoopFailures: 5,
  crashLoopWindowMs: 120_000,
  crashLoopProbeMs: 60_000,
  degradedProbeLimit: 3,
};

export type RetryPlan = { kind: "retry" | "crash-loop"; delayMs: number };

export class RetrySchedule {
  private attempt = 0;
  private failures: number[] = [];
  private crashLooping = false;

  constructor(
    private readonly policy: SupervisionPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  recordFailure(nowMs: number): RetryPlan {
    this.failures = [...this.failures.filter((t) => nowMs - t < this.policy.crashLoopWindowMs), nowMs];
    // Once in a crash loop, stay there until a connect succeeds: the window emptying out is not
    // a reason to start hammering again.
    if (this.crashLooping || this.failures.length >= this.policy.crashLoopFailures) {
      this.crashLooping = true;
      // ±10 % so that servers that failed together are not probed together.
      const spread = this.policy.crashLoopProbeMs * 0.1;
      return {
        kind: "crash-loop",
        delayMs: Math.round(this.policy.crashLoopProbeMs - spread + this.random() * 2 * spread),
      };
    }
    const cap = Math.min(this.policy.maxDelayMs, this.policy.initialDelayMs * 2 ** this.attempt);
    this.attempt++;
    return { kind: "retry", delayMs: Math.round(this.random() * cap) };
  }

  /**
   * A connect worked. The exponent starts over, but failures stay in the window: a server that
   * dies right after every handshake is crash-looping just the same.
   */
  recordSuccess(): void {
    this.attempt = 0;
    this.crashLooping = false;
  }

  /** A manual reconnect: forget everything. */
  reset(): void {
    this.attempt = 0;
    this.failures = [];
    this.crashLooping = false;
  }

  recentFailures(nowMs: number): number {
    return this.failures.filter((t) => nowMs - t < this.policy.crashLoopWindowMs).length;
  }
}
