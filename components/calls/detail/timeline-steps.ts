import type { CallDto, TimelineEntry } from "@/lib/calls/types";
import { formatDuration, formatTimeLeft } from "../call-format";

/** A call's recorded events as the steps a person reads: what happened, who did it, how long it took. */

export type StepTone = "neutral" | "wait" | "ok" | "error" | "muted";
export type TimelineStep = {
  key: string;
  type: string;
  tone: StepTone;
  title: string;
  detail: string | null;
  at: string;
  /** time since the step before, in ms (null for the first) */
  sincePreviousMs: number | null;
  isOngoing?: boolean;
};

/** call.approved: the fields an approver changed, as a list to read; null when none. */
const edited = (d: Record<string, unknown>) =>
  Array.isArray(d.editedFields) && d.editedFields.length > 0 ? d.editedFields.join(", ") : null;

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

function describeEntry(entry: TimelineEntry, call: CallDto): Pick<TimelineStep, "tone" | "title" | "detail"> {
  const d = entry.detail;
  switch (entry.type) {
    case "call.requested":
      return {
        tone: "neutral",
        title: `Requested by ${call.requester.name}`,
        detail: text(d.allowedByRule) && `Allowed without waiting by allow rule ${d.allowedByRule}`,
      };
    case "call.approval_required":
      return { tone: "wait", title: "Approval required", detail: text(d.reason) };
    case "call.approved":
      return {
        tone: "ok",
        title: `Approved by ${text(d.decidedBy) ?? "an approver"}${edited(d) ? " with edited arguments" : ""}`,
        detail:
          [edited(d) && `Changed: ${edited(d)}`, text(d.reason) && `Reason: ${d.reason}`]
            .filter(Boolean)
            .join(" · ") || null,
      };
    case "call.denied":
      return {
        tone: "error",
        title: text(d.decidedBy) ? `Denied by ${d.decidedBy}` : "Denied by policy",
        detail: text(d.reason),
      };
    case "call.expired":
      return {
        tone: "muted",
        title: "Approval expired",
        detail: "No one decided in time; the call never ran.",
      };
    case "call.started":
      return { tone: "neutral", title: "Started", detail: call.serverName ? `on ${call.serverName}` : null };
    case "call.succeeded":
      return d.isError === true
        ? {
            tone: "error",
            title: "Finished with a tool error",
            detail: `ran ${formatDuration(Number(d.durationMs))}`,
          }
        : { tone: "ok", title: "Succeeded", detail: `ran ${formatDuration(Number(d.durationMs))}` };
    case "call.failed":
      return {
        tone: "error",
        title: `Failed: ${text(d.errorCode) ?? "error"}`,
        detail: call.error?.message ?? null,
      };
    case "call.cancelled":
      return { tone: "muted", title: "Withdrawn by the caller", detail: null };
    case "elicitation.requested":
      return {
        tone: "wait",
        title: "The server asked a question",
        detail: "Its caller could not answer; it waits for an operator on the Approvals page.",
      };
    case "elicitation.answered":
      return d.outcome === "accepted" || d.outcome === "declined"
        ? {
            tone: "ok",
            title: `Question ${d.outcome} by ${text(d.decidedBy) ?? "an operator"}`,
            detail: null,
          }
        : {
            tone: "muted",
            title: d.outcome === "expired" ? "Question expired" : "Question cancelled",
            detail: text(d.decidedBy) ? `by ${d.decidedBy}` : "The server was told it was cancelled.",
          };
    default:
      return { tone: "neutral", title: entry.type, detail: null };
  }
}

export function toTimelineSteps(call: CallDto, timeline: TimelineEntry[], now: number): TimelineStep[] {
  const steps: TimelineStep[] = timeline.map((entry, index) => {
    const previous = timeline[index - 1];
    return {
      key: String(entry.id),
      type: entry.type,
      at: entry.at,
      sincePreviousMs: previous ? Date.parse(entry.at) - Date.parse(previous.at) : null,
      ...describeEntry(entry, call),
    };
  });
  const last = timeline.at(-1);
  const sinceLast = last ? now - Date.parse(last.at) : null;
  // What the call is doing now, if it is not over: the step that has not happened yet.
  if (call.status === "pending_approval" && call.approval) {
    const left = formatTimeLeft(call.approval.expiresAt, now);
    steps.push({
      key: "waiting",
      type: "waiting",
      tone: "wait",
      title: "Waiting for a decision",
      detail: left ? `expires in ${left}` : "expired; closing",
      at: new Date(now).toISOString(),
      sincePreviousMs: sinceLast,
      isOngoing: true,
    });
  } else if (call.status === "running" || call.status === "approved") {
    steps.push({
      key: "running",
      type: "running",
      tone: "neutral",
      title: call.status === "running" ? "Running…" : "About to start…",
      detail: null,
      at: new Date(now).toISOString(),
      sincePreviousMs: sinceLast,
      isOngoing: true,
    });
  }
  return steps;
}
