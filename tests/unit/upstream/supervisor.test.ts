import { describe, expect, it } from "vitest";
import { defaultSupervisionPolicy, RetrySchedule } from "@/lib/upstream/supervisor";

const policy = { ...defaultSupervisionPolicy }; // 500 ms → 30 s, 5 failures in 2 min, probe every 60 s
const at = (seconds: number) => seconds * 1000;

describe("RetrySchedule", () => {
  it("backs off exponentially up to the cap (random = 1 shows the ceiling)", () => {
    const schedule = new RetrySchedule({ ...policy, crashLoopFailures: 100 }, () => 1);
    const delays = Array.from({ length: 9 }, (_, i) => schedule.recordFailure(at(i * 200)).delayMs);
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("uses full jitter: anywhere between 0 and the ceiling", () => {
    const values = [0, 0.25, 0.999];
    const schedule = new RetrySchedule({ ...policy, crashLoopFailures: 100 }, () => values.shift() ?? 0);
    expect([0, 1, 2].map((i) => schedule.recordFailure(at(i)).delayMs)).toEqual([0, 250, 1998]);
  });

  it("the fifth failure within two minutes is a crash loop, re-probed about once a minute", () => {
    const schedule = new RetrySchedule(policy, () => 0.5);
    const plans = [0, 1, 3, 7, 15].map((s) => schedule.recordFailure(at(s)));
    expect(plans.map((p) => p.kind)).toEqual(["retry", "retry", "retry", "retry", "crash-loop"]);
    expect(plans[4]?.delayMs).toBe(60_000);
  });

  it("failures spread beyond the window never add up to a crash loop", () => {
    const schedule = new RetrySchedule(policy, () => 0.5);
    const kinds = [0, 40, 80, 120, 160, 200, 240].map((s) => schedule.recordFailure(at(s)).kind);
    expect(kinds).not.toContain("crash-loop");
  });

  it("stays in crash-loop while probes fail, even after the window has emptied", () => {
    const schedule = new RetrySchedule(policy, () => 0.5);
    for (const s of [0, 1, 2, 3, 4]) schedule.recordFailure(at(s));
    expect(schedule.recordFailure(at(600)).kind).toBe("crash-loop");
    expect(schedule.recordFailure(at(1200)).kind).toBe("crash-loop");
  });

  it("spreads crash-loop probes ±10 % so servers that failed together are not probed together", () => {
    const low = new RetrySchedule({ ...policy, crashLoopFailures: 1 }, () => 0);
    const high = new RetrySchedule({ ...policy, crashLoopFailures: 1 }, () => 1);
    expect(low.recordFailure(0).delayMs).toBe(54_000);
    expect(high.recordFailure(0).delayMs).toBe(66_000);
  });

  it("a success restarts the exponent but remembers recent failures", () => {
    const schedule = new RetrySchedule(policy, () => 1);
    for (const s of [0, 1, 2]) schedule.recordFailure(at(s));
    schedule.recordSuccess();
    expect(schedule.recordFailure(at(3))).toEqual({ kind: "retry", delayMs: 500 });
    // …so a server that dies right after each handshake still ends up in crash-loop.
    expect(schedule.recordFailure(at(4)).kind).toBe("crash-loop");
  });

  it("a manual reset forgets everything", () => {
    const schedule = new RetrySchedule(policy, () => 1);
    for (const s of [0, 1, 2, 3, 4]) schedule.recordFailure(at(s));
    schedule.reset();
    expect(schedule.recentFailures(at(5))).toBe(0);
    expect(schedule.recordFailure(at(5))).toEqual({ kind: "retry", delayMs: 500 });
  });
});
