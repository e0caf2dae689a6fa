import type { RecordedEvent } from "@/lib/events/event-types";

/**
 * What a webhook can subscribe to, and which recorded events mean it. A small, stable vocabulary
 * of its own: receivers should not have to follow every internal event a release adds.
 *  - approval.requested — a call waits for a person's decision (call.approval_required)
 *  - approval.decided — a person approved or denied it (call.approved, call.denied by someone)
 *  - approval.expired — nobody decided in time, or an approved call was not started in time
 *  - server.attention — a server needs an admin: crash loop, needs authorization, disabled by policy
 */
export const webhookEventTypes = [
  "approval.requested",
  "approval.decided",
  "approval.expired",
  "server.attention",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookEventLabels: Record<WebhookEventType, string> = {
  "approval.requested": "Approval requested",
  "approval.decided": "Approval decided",
  "approval.expired": "Approval expired",
  "server.attention": "Server needs attention",
};

/** What a delivery says: the subscribed type, a sentence for people, and the facts for programs. */
export type WebhookMessage = {
  type: WebhookEventType;
  summary: string;
  /** the page to open in Switchboard, relative to its public URL */
  path: string;
  data: Record<string, unknown>;
};

/** The message an event means for webhooks, or undefined when it means nothing to them. */
export function webhookMessageOf(event: RecordedEvent): WebhookMessage | undefined {
  switch (event.type) {
    case "call.approval_required":
      return {
        type: "approval.requested",
        summary: `${event.requester.name} asks to run ${event.tool} (${event.effect}): ${event.reason}`,
        path: "/approvals",
        data: { ...callFacts(event), reason: event.reason, expiresAt: event.expiresAt },
      };
    case "call.approved":
      return {
        type: "approval.decided",
        summary: `${event.decidedBy} approved ${event.tool} for ${event.requester.name}`,
        path: `/calls/${event.callId}`,
        data: { ...callFacts(event), decision: "approved", decidedBy: event.decidedBy, reason: event.reason },
      };
    case "call.denied":
      // A refusal by grants or rules was never waiting for anyone: not an approval decision.
      if (event.decidedBy === null) return undefined;
      return {
        type: "approval.decided",
        summary: `${event.decidedBy} denied ${event.tool} for ${event.requester.name}: ${event.reason}`,
        path: `/calls/${event.callId}`,
        data: { ...callFacts(event), decision: "denied", decidedBy: event.decidedBy, reason: event.reason },
      };
    case "call.expired":
      return {
        type: "approval.expired",
        summary: `The approval of ${event.tool} for ${event.requester.name} expired`,
        path: `/calls/${event.callId}`,
        data: callFacts(event),
      };
    case "server.state_changed":
      if (event.to !== "crash-loop" && event.to !== "needs-authorization") return undefined;
      return {
        type: "server.attention",
        summary:
          event.to === "crash-loop"
            ? `${event.serverName} keeps crashing${event.error ? `: ${event.error}` : ""}`
            : `${event.serverName} needs an admin to connect it again`,
        path: `/servers/${encodeURIComponent(event.serverName)}`,
        data: {
          serverId: event.serverId,
          serverName: event.serverName,
          state: event.to,
          error: event.error ?? null,
          // Each replica connects every server: which one saw it (null: recorded before replicas were named).
          replicaId: event.replicaId ?? null,
        },
      };
    case "server.disabled_by_policy":
      return {
        type: "server.attention",
        summary: `${event.serverName} was disabled by the ${event.policy} policy: ${event.reason}`,
        path: `/servers/${encodeURIComponent(event.serverName)}`,
        data: {
          serverId: event.serverId,
          serverName: event.serverName,
          state: "disabled",
          error: event.reason,
        },
      };
    default:
      return undefined;
  }
}

type CallEvent = Extract<RecordedEvent, { callId: string; tool: string }>;

function callFacts(event: CallEvent): Record<string, unknown> {
  return {
    callId: event.callId,
    tool: event.tool,
    serverName: event.serverName,
    effect: event.effect,
    requester: { kind: event.requester.kind, name: event.requester.name },
  };
}
