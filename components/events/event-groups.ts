import type { RecordedEvent } from "@/lib/events/event-types";

/**
 * Collapsing repetition in the event list: one crash-looping server must not drown everything
 * else. A run collapses only when it repeats the *same* thing about the *same* subject:
 *
 * - Each event has a repeat key: its type and the fields that mean something, without what
 *   differs on every occurrence anyway (its id and time, a process id, a latency, a snapshot id).
 *   Who did it (`by`) is part of the key: two people's changes never merge.
 * - Events that each stand for something of their own (a call, an allow rule, an operator's
 *   question) have no key and are never merged, however alike they read.
 * - A run is consecutive events whose keys repeat with a short period: `A A A` (period 1), or the
 *   cycle a crash loop writes — connecting → disconnected, process exited — over and over (period
 *   3). Every event of a cycle must be about one subject, so two servers failing side by side stay
 *   two rows.
 *
 * Pure over the list as shown (newest first), so a live arrival that continues the run simply
 * extends the group at the next render.
 */

export type EventItem =
  | { kind: "single"; event: RecordedEvent }
  | {
      kind: "group";
      /** stable while live arrivals extend it: its oldest event's id */
      key: string;
      /** newest first, as in the list */
      events: RecordedEvent[];
      /** one round of the cycle, newest first (length 1 for plain repeats) */
      cycle: RecordedEvent[];
      /** how many times the cycle ran (partial rounds at the edges not counted) */
      repeats: number;
    };

/** Longest cycle looked for: a crash loop writes three events a round; four leaves some room. */
export const MAX_CYCLE = 4;

/** Types whose every event is its own thing (a call, a rule, a question): never merged. */
const distinctTypes = /^(call|elicitation|allow_rule)\./;

/** Fields that differ on every occurrence of the same happening. */
const volatileFields = new Set([
  "id",
  "tenantId",
  "createdAt",
  "pid",
  "latencyMs",
  "snapshotId",
  "idleSeconds",
]);

/** What makes two events "the same" — or null when an event is never merged. */
export function repeatKey(event: RecordedEvent): string | null {
  if (distinctTypes.test(event.type)) return null;
  return stableStringify(
    Object.fromEntries(Object.entries(event).filter(([field]) => !volatileFields.has(field))),
  );
}

/** What an event is about: a cycle never spans two subjects. */
export function subjectOf(event: RecordedEvent): string {
  if ("serverId" in event && event.serverId) return `server:${event.serverId}`;
  if ("principalId" in event) return `principal:${event.principalId}`;
  if (event.type === "policy.changed") return `policy:${event.subject}:${event.subjectId ?? ""}`;
  return `type:${event.type}`;
}

export function groupEvents(events: readonly RecordedEvent[]): EventItem[] {
  const keys = events.map(repeatKey);
  const items: EventItem[] = [];
  let i = 0;
  while (i < events.length) {
    const run = longestRun(events, keys, i);
    if (!run) {
      items.push({ kind: "single", event: events[i] as RecordedEvent });
      i++;
      continue;
    }
    const grouped = events.slice(i, i + run.length);
    items.push({
      kind: "group",
      key: `group-${(grouped[grouped.length - 1] as RecordedEvent).id}`,
      events: grouped,
      cycle: grouped.slice(0, run.period),
      repeats: Math.floor(run.length / run.period),
    });
    i += run.length;
  }
  return items;
}

/**
 * The longest repeating run starting at `start`: at least two full rounds of a cycle of one
 * subject, plus any partial round after them. Ties go to the shorter cycle.
 */
function longestRun(
  events: readonly RecordedEvent[],
  keys: readonly (string | null)[],
  start: number,
): { period: number; length: number } | null {
  let best: { period: number; length: number } | null = null;
  for (let period = 1; period <= MAX_CYCLE && start + 2 * period <= events.length; period++) {
    if (!isCycle(events, keys, start, period)) continue;
    let length = period;
    while (start + length < events.length && keys[start + length] === keys[start + length - period]) length++;
    if (length >= 2 * period && (!best || length > best.length)) best = { period, length };
  }
  return best;
}

/** A block that can repeat: every event has a key, one subject throughout, no shorter period inside. */
function isCycle(
  events: readonly RecordedEvent[],
  keys: readonly (string | null)[],
  start: number,
  period: number,
): boolean {
  const subject = subjectOf(events[start] as RecordedEvent);
  for (let j = start; j < start + period; j++) {
    if (keys[j] === null || subjectOf(events[j] as RecordedEvent) !== subject) return false;
  }
  // `A A` is period 1 repeated, not a cycle of two: leave that to period 1.
  return period === 1 || keys.slice(start, start + period).some((key) => key !== keys[start]);
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
