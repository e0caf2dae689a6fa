import { z } from "zod";
import { connectionStates } from "@/lib/upstream/pool-events";
import type { EventTypeName } from "./event-names";

/**
 * Every event Switchboard records, as one discriminated union. Events carry identities and
 * outcomes — never tool arguments, results or secret values.
 */
const connectionState = z.enum(connectionStates);
const serverRef = { serverId: z.string(), serverName: z.string() };
/**
 * The replica whose connection this is about (lib/runtime/replica.ts): each replica connects every
 * server. Optional: events recorded before replicas were named.
 */
const replicaRef = {
  replicaId: z
    .string()
    .optional()
    .meta({ description: "The replica (SWITCHBOARD_REPLICA_ID, or host:port) whose connection this is." }),
};
/**
 * Who made a configuration change: a person, an API key (by id and name, as when it acted), or
 * Switchboard itself (a first start, a policy sweep). Optional: events recorded before it was kept.
 */
const changedBy = z.object({
  kind: z.enum(["operator", "api_key", "system"]),
  id: z.string().nullable(),
  name: z.string().nullable(),
});
export type ChangedBy = z.infer<typeof changedBy>;
const byRef = { by: changedBy.optional() };
const listDiff = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});

/**
 * The lifecycle of one tool call (lib/calls). Who asked, which tool, what effect, how it ended —
 * never its arguments or result.
 */
const callRef = {
  callId: z.string(),
  /** left out by events recorded before reads were calls: a tool call */
  kind: z.enum(["tool_call", "resource_read", "prompt_get"]).optional(),
  serverId: z.string().nullable(),
  serverName: z.string().nullable(),
  tool: z.string(),
  effect: z.enum(["read", "write", "external-write", "destructive"]),
  requester: z.object({ kind: z.enum(["principal", "operator"]), id: z.string(), name: z.string() }),
};

function callEvents() {
  return [
    z.object({
      type: z.literal("call.requested"),
      ...callRef,
      /** the allow rule that let it through without an approver (lib/approvals/allow-rule-match.ts) */
      allowedByRule: z.string().optional(),
    }),
    z.object({
      type: z.literal("call.approval_required"),
      ...callRef,
      reason: z.string(),
      expiresAt: z.string(),
    }),
    z.object({
      type: z.literal("call.approved"),
      ...callRef,
      decidedBy: z.string(),
      reason: z.string().nullable(),
      /** the top-level argument fields the approver changed before approving; absent when none */
      editedFields: z.array(z.string()).optional(),
    }),
    z.object({
      type: z.literal("call.denied"),
      ...callRef,
      /** the operator who denied it; null when a policy (grants, rules) refused it */
      decidedBy: z.string().nullable(),
      reason: z.string(),
      /** why a policy refused it, when it says more than "denied" (rate_limited: a limit, lib/limits) */
      code: z.string().optional(),
    }),
    z.object({ type: z.literal("call.expired"), ...callRef }),
    z.object({ type: z.literal("call.started"), ...callRef }),
    z.object({ type: z.literal("call.succeeded"), ...callRef, durationMs: z.number(), isError: z.boolean() }),
    z.object({
      type: z.literal("call.failed"),
      ...callRef,
      durationMs: z.number().nullable(),
      errorCode: z.string(),
    }),
    z.object({ type: z.literal("call.cancelled"), ...callRef }),
  ] as const;
}

export const eventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("server.state_changed"),
    ...serverRef,
    from: connectionState,
    to: connectionState,
    error: z.string().optional(),
    ...replicaRef,
  }),
  // Configuration changes: every process's runtime follows them (its pool connects or drops the server).
  z.object({ type: z.literal("server.registered"), ...serverRef, ...byRef }),
  z.object({ type: z.literal("server.updated"), ...serverRef, ...byRef }),
  z.object({ type: z.literal("server.deleted"), ...serverRef, ...byRef }),
  /** A policy (the instance's or the workspace's) no longer allows the server: it was disabled, never kept running. */
  z.object({
    type: z.literal("server.disabled_by_policy"),
    ...serverRef,
    policy: z.enum(["instance", "workspace"]),
    rule: z.string(),
    reason: z.string(),
  }),
  /** OAuth (lib/oauth): an admin connected the server; every process reconnects it with the new tokens. */
  z.object({ type: z.literal("server.authorized"), ...serverRef, ...byRef }),
  /** An admin disconnected it: its tokens are deleted. */
  z.object({ type: z.literal("server.deauthorized"), ...serverRef, ...byRef }),
  /** Its tokens stopped working (refresh refused, grant revoked, more scope needed): it waits for a Connect. */
  z.object({ type: z.literal("server.authorization_needed"), ...serverRef, reason: z.string() }),
  z.object({
    type: z.literal("server.process_exited"),
    ...serverRef,
    pid: z.number().optional(),
    exitCode: z.number().nullable(),
    signal: z.string().nullable(),
    ...replicaRef,
  }),
  z.object({
    type: z.literal("server.health_checked"),
    ...serverRef,
    ok: z.boolean(),
    latencyMs: z.number().nullable(),
    error: z.string().optional(),
    ...replicaRef,
  }),
  z.object({
    type: z.literal("catalog.changed"),
    ...serverRef,
    snapshotId: z.string().nullable(),
    diff: z.object({ tools: listDiff, resources: listDiff, resourceTemplates: listDiff, prompts: listDiff }),
  }),
  z.object({ type: z.literal("catalog.problem"), ...serverRef, problems: z.array(z.string()) }),
  /**
   * Something that decides what a caller may do changed: a principal's grants, the principal, an
   * API key (revoked), a tool's effect/rule/enabled flag, the approval policy or a stored secret.
   * Every process drops what it derived from it (lib/policy/decision-cache) — and gateway
   * sessions re-announce their tool lists. The subject id says which row, never its content.
   */
  z.object({
    type: z.literal("policy.changed"),
    subject: z.enum([
      "grants",
      "principal",
      "api_key",
      "tool",
      "approval_policy",
      "secret",
      "gateway",
      "limits",
    ]),
    subjectId: z.string().nullable(),
    /** A tool's server: caches drop that server's part of the catalog only. */
    serverId: z.string().optional(),
    ...byRef,
  }),
  /**
   * A gateway session was closed to make room for a newer one of the same principal or workspace
   * (a session cap: lib/gateway/sessions/session-caps); its client must start a new one.
   */
  z.object({
    type: z.literal("gateway.session_evicted"),
    principalId: z.string(),
    principalName: z.string(),
    cap: z.enum(["principal", "workspace", "process"]),
    idleSeconds: z.number(),
  }),
  /**
   * Allow rules (lib/approvals/allow-rules.ts): someone let a principal call a tool without an
   * approver for a while, or took that back. Dashboards follow; no process caches rules.
   */
  z.object({
    type: z.literal("allow_rule.created"),
    ruleId: z.string(),
    principalId: z.string(),
    principalName: z.string(),
    tool: z.string(),
    expiresAt: z.string(),
    ...byRef,
  }),
  z.object({ type: z.literal("allow_rule.revoked"), ruleId: z.string(), tool: z.string(), ...byRef }),
  /**
   * A downstream server asked a question during a call whose caller could not answer it; it waits
   * for an operator (lib/elicitations). Never the question's fields or the answer's values.
   */
  z.object({
    type: z.literal("elicitation.requested"),
    elicitationId: z.string(),
    callId: z.string(),
    ...serverRef,
    expiresAt: z.string(),
  }),
  z.object({
    type: z.literal("elicitation.answered"),
    elicitationId: z.string(),
    callId: z.string(),
    ...serverRef,
    outcome: z.enum(["accepted", "declined", "cancelled", "expired"]),
    /** the operator or key that answered; null when it expired or the call ended first */
    decidedBy: z.string().nullable(),
  }),
  // An agent run (lib/agents): who it runs as and how it ended — never the prompt, messages or results.
  z.object({
    type: z.literal("agent_run.started"),
    runId: z.string(),
    principalId: z.string(),
    principalName: z.string(),
    model: z.string(),
  }),
  /** a step was added to the run (a model turn, a tool's result): read the run for it */
  z.object({
    type: z.literal("agent_run.progressed"),
    runId: z.string(),
    step: z.enum(["assistant", "tool_call", "tool_result", "answer"]),
    round: z.number(),
    /** the governed call the step is about (not `callId`: the event is the run's, not the call's) */
    stepCallId: z.string().nullable(),
  }),
  z.object({
    type: z.literal("agent_run.finished"),
    runId: z.string(),
    status: z.enum(["succeeded", "failed", "cancelled", "limit_reached"]),
    stopReason: z.string().nullable(),
  }),
  ...callEvents(),
]);

export type SwitchboardEvent = z.infer<typeof eventSchema>;
export type EventType = SwitchboardEvent["type"];

/** A recorded event: the payload plus its monotonic id, workspace and time. */
export type RecordedEvent = SwitchboardEvent & { id: number; tenantId: string; createdAt: string };

/*
 * Compile-time check that event-names.ts lists exactly the types of the union: adding a type here
 * without listing it there (or the reverse) fails `tsc` here.
 */
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AssertTrue<T extends true> = T;
export type EventNamesMatchSchema = AssertTrue<Exact<EventType, EventTypeName>>;
