/** Small, pure formatting helpers shared by every area of the dashboard. */

// Re-exported, so components read the one browser-safe copy through components/ui.
export { formatBytes } from "@/lib/format-bytes";
export { isRecord } from "@/lib/is-record";

/** Definitions come from remote servers: read a field as text only when it really is text. */
export function textOf(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

export function pluralize(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Today: the time with seconds; otherwise the date too. In the viewer's locale and time zone. */
export function formatDateTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { timeStyle: "medium" })
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}
