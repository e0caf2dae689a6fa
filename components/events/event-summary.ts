import { formatDuration } from "@/components/calls/call-format";
import type { Tone } from "@/components/ui/badge";
import type { RecordedEvent } from "@/lib/events/event-types";

/** One recorded event in words: a short label for its badge and a one-line summary. */
export type EventLook = { label: string; tone: Tone; summary: string; callId: string | null };

type DiffCounts = { added: string[]; removed: string[]; changed: string[] };

function diffSummary(diff: Record<string, DiffCounts>): string {
  const parts = Object.entries(diff).flatMap(([kind, d]) => {
    const counts = [
      d.added.length ? `+${d.added.length}` : "",
      d.removed.length ? `−${d.removed.length}` : "",
      d.changed.length ? `~${d.changed.length}` : "",
    ].filter(Boolean);
    return counts.length ? [`${kind === "resourceTemplates" ? "templates" : kind} ${counts.join(" ")}`] : [];
  });
  return parts.join(", ") || "no entries differ";
}

export function describeEvent(event: RecordedEvent): EventLook {
  const look = (label: string, tone: Tone, summary: string): EventLook => ({
    label,
    tone,
    summary,
    callId: "callId" in event ? event.callId : null,
  });
  switch (event.type) {
    case "server.registered":
      return look("registered", "blue", `${event.serverName} was registered`);
    case "server.updated":
      return look("updated", "blue", `${event.serverName}'s configuration changed`);
    case "server.deleted":
      return look("deleted", "slate", `${event.serverName} was removed`);
    case "server.disabled_by_policy":
      return look("disabled by policy", "red", `${event.serverName} was disabled: ${event.reason}`);
    case "server.state_changed":
      return look(
        event.to,
        event.to === "ready"
          ? "green"
          : event.to === "connecting" || event.to === "disabled"
            ? "blue"
            : "red",
        `${event.from} → ${event.to}${event.error ? `: ${event.error}` : ""}`,
      );
    case "server.process_exited":
      return look(
        "process exited",
        "red",
        event.signal ? `killed by ${event.signal}` : `exited with code ${event.exitCode ?? "unknown"}`,
      );
    case "server.health_checked":
      return event.ok
        ? look(
            "healthy",
            "green",
            `health check ok${event.latencyMs !== null ? ` in ${formatDuration(event.latencyMs)}` : ""}`,
          )
        : look("unhealthy", "red", `health check failed${event.error ? `: ${event.error}` : ""}`);
    case "catalog.changed":
      return look("catalog changed", "blue", diffSummary(event.diff));
    case "catalog.problem":
      return look(
        "catalog problem",
        "amber",
        `${event.problems.length} ${event.problems.length === 1 ? "problem" : "problems"}: ${event.problems[0] ?? ""}`,
      );
    case "call.requested":
      return look("requested", "neutral", `${event.requester.name} called ${event.tool}`);
    case "call.approval_required":
      return look("approval required", "amber", `${event.tool} waits for approval: ${event.reason}`);
    case "call.approved":
      return look(
        "approved",
        "green",
        `${event.decidedBy} approved ${event.tool}${event.editedFields?.length ? ` with edited arguments (${event.editedFields.join(", ")})` : ""}${event.reason ? `: ${event.reason}` : ""}`,
      );
    case "call.denied":
      return look("denied", "red", `${event.decidedBy ?? "Policy"} denied ${event.tool}: ${event.reason}`);
    case "call.expired":
      return look("expired", "slate", `${event.tool}: no one decided in time`);
    case "call.started":
      return look("started", "blue", `${event.tool} started`);
    case "call.succeeded":
      return event.isError
        ? look(
            "tool error",
            "red",
            `${event.tool} answered with an error after ${formatDuration(event.durationMs)}`,
          )
        : look("succeeded", "green", `${event.tool} succeeded in ${formatDuration(event.durationMs)}`);
    case "call.failed":
      return look("failed", "red", `${event.tool} failed: ${event.errorCode}`);
    case "call.cancelled":
      return look("cancelled", "slate", `${event.tool} was withdrawn by the caller`);
    case "policy.changed":
      return look("policy changed", "slate", policySummary(event.subject, event.subjectId));
    case "allow_rule.created":
      return look(
        "rule created",
        "amber",
        `${event.principalName} may call ${event.tool} without approval until ${event.expiresAt}`,
      );
    case "allow_rule.revoked":
      return look("rule revoked", "slate", `the allow rule for ${event.tool} was revoked`);
    case "gateway.session_evicted":
      return look(
        "session evicted",
        "amber",
        `a gateway session of ${event.principalName} was closed to make room (${event.cap} cap)`,
      );
    default: {
      // An event type newer than this page: shown by its name rather than dropped.
      const unknown = event as { type: string };
      return { label: unknown.type, tone: "neutral", summary: unknown.type, callId: null };
    }
  }
}

const policySubjects: Record<string, string> = {
  grants: "a principal's grants",
  principal: "a principal was deleted",
  api_key: "an API key was revoked",
  tool: "a tool's effect, approval rule or switch",
  approval_policy: "the approval policy",
  secret: "a stored secret",
  gateway: "the gateway settings",
};

function policySummary(subject: string, subjectId: string | null): string {
  const what = policySubjects[subject] ?? subject;
  return subjectId && subject === "secret" ? `${what} (${subjectId})` : what;
}

/** The part of an event's name before the dot: what it is about. */
export function eventCategory(type: string): string {
  return type.split(".")[0] ?? type;
}
