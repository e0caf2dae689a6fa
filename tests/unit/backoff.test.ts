import { describe, expect, it } from "vitest";
import { backoffDelay } from "@/lib/client/backoff";

const lowest = () => 0;
const highest = () => 0.999_999;

describe("backoffDelay", () => {
  it.each([
    // attempt, lowest, highest (1 s base, 30 s cap)
    [1, 500, 1_000],
    [2, 1_000, 2_000],
    [3, 2_000, 4_000],
    [5, 8_000, 16_000],
    [6, 15_000, 30_000],
    [50, 15_000, 30_000],
  ])("retry %i waits between %i and %i ms", (attempt, min, max) => {
    expect(backoffDelay(attempt, { random: lowest })).toBe(min);
    expect(backoffDelay(attempt, { random: highest })).toBe(max);
  });

  it("spreads clients that failed together over the upper half of the step", () => {
    const delays = [0, 0.25, 0.5, 0.75].map((r) => backoffDelay(3, { random: () => r }));
    expect(delays).toEqual([2_000, 2_500, 3_000, 3_500]);
    expect(new Set(Array.from({ length: 50 }, () => backoffDelay(4))).size).toBeGreaterThan(1);
  });

  it("takes its own base and cap, and treats nonsense attempts as the first", () => {
    expect(backoffDelay(1, { baseMs: 200, random: highest })).toBe(200);
    expect(backoffDelay(10, { baseMs: 200, maxMs: 3_000, random: highest })).toBe(3_000);
    expect(backoffDelay(0, { random: highest })).toBe(1_000);
    expect(backoffDelay(-3, { random: lowest })).toBe(500);
  });
});
