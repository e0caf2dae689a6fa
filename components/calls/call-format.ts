import type { Tone } from "@/components/ui/badge";
import type { CallKind, CallOutcome, CallStatus } from "@/lib/calls/types";

/** Small, pure helpers shared by the call, approval, event and overview views. */

/**
 * The one mapping from how a call ended (lib/calls/call-outcome.ts) to its badge: the Calls list and
 * filter, the call page, the Playground and the Overview all read it. A `succeeded` call whose tool
 * answered `isError: true` is a `tool_error`, never green.
 */
export const callOutcomes: Record<CallOutcome, { label: string; tone: Tone; title: string }> = {
  pending_approval: { label: "Waiting for approval", tone: "amber", title: "Held until an operator decides" },
  approved: { label: "Approved", tone: "blue", title: "Approved; about to run" },
  running: { label: "Running", tone: "blue", title: "Running on the server now" },
  succeeded: { label: "Succeeded", tone: "green", title: "The tool ran and reported no error" },
  tool_error: { label: "Tool error", tone: "red", title: "The tool ran and answered with isError: true" },
  failed: { label: "Failed", tone: "red", title: "The call did not produce a result" },
  denied: { label: "Denied", tone: "red", title: "Refused by an approver or by policy; it never ran" },
  rate_limited: {
    label: "Rate limited",
    tone: "amber",
    title: "Refused at once: over a limit of calls per minute, in flight or waiting (Settings → Limits)",
  },
  expired: { label: "Expired", tone: "slate", title: "No one decided in time; it never ran" },
  cancelled: { label: "Cancelled", tone: "slate", title: "The caller withdrew it before it ran" },
};

/** What a call asked the server for: tool calls, resource reads and prompt gets share the history. */
export const callKinds: Record<CallKind, { label: string; tone: Tone; title: string }> = {
  tool_call: { label: "Tool call", tone: "slate", title: "tools/call" },
  resource_read: { label: "Resource read", tone: "blue", title: "resources/read of the URI shown" },
  prompt_get: { label: "Prompt get", tone: "blue", title: "prompts/get of the prompt shown" },
};

export const isCallFinished = (status: CallStatus) =>
  status === "succeeded" ||
  status === "failed" ||
  status === "denied" ||
  status === "expired" ||
  status === "cancelled";

/**
 * Whether the call was matched to a server's tool. One refused before its tool was looked up (no
 * grant, a viewer, an unknown name) has no server, and its effect is only the worst-case default
 * it was stored with, not the tool's.
 */
export const reachedTool = (call: { serverId: string | null }) => call.serverId !== null;

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return minutes < 60 ? `${minutes} min ${seconds} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "just now", "42 s ago", "2 min ago", "3 h ago", "4 d ago". */
export function formatAgo(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (Number.isNaN(seconds)) return iso;
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.floor(hours / 24)} d ago`;
}

/** Time left until `iso` as "9:41" (or "1 h 05 min"); null once it has passed. */
export function formatTimeLeft(iso: string, now: number): string | null {
  const seconds = Math.floor((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(seconds) || seconds <= 0) return null;
  const minutes = Math.floor(seconds / 60);
  if (minutes >= 60) return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}
