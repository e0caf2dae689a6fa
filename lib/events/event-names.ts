/**
 * The names of every event type, as plain strings. Kept apart from the zod schema so browser code
 * (EventSource needs one listener per `event:` name) and the filter parser can use them without
 * pulling zod in; event-types.ts checks at compile time that this list and the union agree.
 */
export const EVENT_TYPES = [
  "server.registered",
  "server.updated",
  "server.deleted",
  "server.disabled_by_policy",
  "server.state_changed",
  "server.authorized",
  "server.deauthorized",
  "server.authorization_needed",
  "server.process_exited",
  "server.health_checked",
  "catalog.changed",
  "catalog.problem",
  "policy.changed",
  "gateway.session_evicted",
  "allow_rule.created",
  "allow_rule.revoked",
  "call.requested",
  "call.approval_required",
  "call.approved",
  "call.denied",
  "call.expired",
  "call.started",
  "call.succeeded",
  "call.failed",
  "call.cancelled",
  "elicitation.requested",
  "elicitation.answered",
  "agent_run.started",
  "agent_run.progressed",
  "agent_run.finished",
] as const;

export type EventTypeName = (typeof EVENT_TYPES)[number];

/** The SSE `event:` name of the marker a slow subscriber gets when its buffer overflowed. */
export const GAP_EVENT = "gap";
