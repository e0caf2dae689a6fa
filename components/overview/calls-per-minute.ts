import type { CallPoint } from "./overview-queries";

export type MinuteBucket = { start: number; total: number; failed: number };

// A tool error counts as failed here too: the tool ran, but did not do what was asked.
const FAILED = new Set(["failed", "tool_error", "denied", "expired"]);

/** `minutes` one-minute buckets ending at `now`, oldest first; failed, denied and expired counted apart. */
export function bucketByMinute(points: CallPoint[], now: number, minutes: number): MinuteBucket[] {
  const end = Math.floor(now / 60_000) * 60_000 + 60_000;
  const buckets: MinuteBucket[] = Array.from({ length: minutes }, (_, i) => ({
    start: end - (minutes - i) * 60_000,
    total: 0,
    failed: 0,
  }));
  for (const point of points) {
    const index = minutes - 1 - Math.floor((end - 1 - Date.parse(point.at)) / 60_000);
    const bucket = buckets[index];
    if (!bucket) continue;
    bucket.total++;
    if (FAILED.has(point.outcome)) bucket.failed++;
  }
  return buckets;
}
