import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId } from "./columns";

export const callStatuses = [
  "pending_approval",
  "approved",
  "denied",
  "expired",
  "running",
  "succeeded",
  "failed",
  "cancelled",
] as const;
export type CallStatus = (typeof callStatuses)[number];

/**
 * What a call asked the server for: a tool call, a resource read or a prompt get. Reads and prompt
 * gets through the gateway are recorded like tool calls (lib/calls/execute-catalog-read.ts); for
 * them `tool_name` holds the URI or the prompt's own name.
 */
export const callKinds = ["tool_call", "resource_read", "prompt_get"] as const;
export type CallKind = (typeof callKinds)[number];

/** The record of one tool call (or resource read, or prompt get) through the governed path. */
export const calls = pgTable(
  "calls",
  {
    id: id(),
    tenantId: tenantId(),
    /** who asked: a principal id or an operator id (see requesterKind) */
    requesterKind: text("requester_kind", { enum: ["principal", "operator"] }).notNull(),
    requesterId: text("requester_id").notNull(),
    kind: text("kind", { enum: callKinds }).notNull().default("tool_call"),
    serverId: text("server_id"),
    toolName: text("tool_name").notNull(),
    gatewayName: text("gateway_name").notNull(),
    effect: text("effect").notNull(),
    arguments: jsonb("arguments").$type<Record<string, unknown>>().notNull(),
    /**
     * The unscrubbed arguments, AES-GCM encrypted, kept only while the call may still run and only
     * when scrubbing changed them: an approved call may run on another process than the one it came in on.
     */
    sealedArguments: text("sealed_arguments"),
    /**
     * The arguments as the caller asked for them (scrubbed), kept only when an approver changed them
     * before approving: `arguments` then holds what ran (lib/approvals/edited-arguments.ts).
     */
    requestedArguments: jsonb("requested_arguments").$type<Record<string, unknown>>(),
    status: text("status", { enum: callStatuses }).notNull(),
    idempotencyKey: text("idempotency_key"),
    result: jsonb("result").$type<Record<string, unknown>>(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    durationMs: integer("duration_ms"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /**
     * The process that runs it, as its PostgreSQL connections name it (`switchboard:<id>`, set by the
     * database's default on the connection that writes `running`): calls a stopped process left
     * running are found by it (lib/calls/stopped-runners.ts).
     */
    runner: text("runner").default(sql`current_setting('application_name')`),
    /**
     * An approved call must start by then, or it is expired instead of run late: the approval (or the
     * policy) said yes to running it now, not whenever a process next notices it
     * (lib/calls/unstarted-calls.ts). Null only for calls never `approved`.
     */
    startBy: timestamp("start_by", { withTimezone: true }),
    /**
     * The allow rule (allow_rules.id) that let it through without waiting for an approver; kept as
     * text, not a foreign key, so the call's record outlives the rule.
     */
    allowedByRule: text("allowed_by_rule"),
  },
  (t) => [
    index("calls_tenant_created_idx").on(t.tenantId, t.createdAt),
    uniqueIndex("calls_idempotency_key").on(t.tenantId, t.requesterId, t.idempotencyKey),
    // Running calls by runner: the stopped-runner sweep (every 30 s) and the start-up recovery read
    // only these, and must not scan the whole history to find them.
    index("calls_running_runner_idx").on(t.runner).where(sql`${t.status} = 'running'`),
    // Approved calls not started yet: the same sweeps look for those whose runner stopped or whose
    // start is overdue.
    index("calls_approved_runner_idx").on(t.runner).where(sql`${t.status} = 'approved'`),
  ],
);

/** "cancelled": the caller withdrew the request (e.g. an MCP client cancelled) before a decision. */
export const approvalStatuses = ["pending", "approved", "denied", "expired", "cancelled"] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

/** One approval per gated call; decided exactly once by a conditional update. */
export const approvals = pgTable(
  "approvals",
  {
    id: id(),
    tenantId: tenantId(),
    callId: text("call_id")
      .notNull()
      .references(() => calls.id, { onDelete: "cascade" }),
    status: text("status", { enum: approvalStatuses }).notNull().default("pending"),
    /** why the policy held the call (shown to approvers) */
    requiredBecause: text("required_because"),
    /** the decider's reason */
    reason: text("reason"),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("approvals_call_key").on(t.callId),
    index("approvals_tenant_status_idx").on(t.tenantId, t.status),
  ],
);

/**
 * Append-only event log; the id is the SSE event id. It comes from next_event_id() (migration
 * 0011), which gives the writing transaction its xid before it takes a number from
 * events_id_seq: lib/events/stable-feed.ts relies on that to know when no lower id can still commit.
 */
export const events = pgTable(
  "events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().default(sql`next_event_id()`),
    tenantId: tenantId(),
    type: text("type").notNull(),
    serverId: text("server_id"),
    callId: text("call_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("events_tenant_id_idx").on(t.tenantId, t.id),
    // A call's timeline is read by call id.
    index("events_call_id_idx").on(t.callId),
  ],
);
