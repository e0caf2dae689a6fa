import { and, eq, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  apiKeys,
  approvals,
  type CallKind,
  type CallStatus,
  calls,
  mcpServers,
  principals,
  users,
} from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import type { EffectClass } from "@/lib/policy/effects";
import { type ArgumentEditInfo, argumentEditOf, withEditNote } from "./argument-diff";
import { type CallOutcome, outcomeOf } from "./call-outcome";
import type { BoundedResult } from "./result-bounds";

/** A call row with the names people need (server, requester, decider), and its DTOs. */

export type CallRow = typeof calls.$inferSelect;
export type ApprovalRow = typeof approvals.$inferSelect;
export type CallView = {
  call: CallRow;
  serverName: string | null;
  requesterName: string | null;
  approval: ApprovalRow | null;
  deciderUserName: string | null;
  deciderKeyName: string | null;
};

/** Why a call did not produce a result. */
export type CallErrorCode =
  | "policy_denied"
  | "approval_expired"
  /** approved, but no process started it within its window (lib/calls/unstarted-calls.ts) */
  | "not_started"
  | "cancelled"
  | "timeout"
  | "upstream_unavailable"
  | "upstream_error"
  | "internal";

export type Party = { kind: "principal" | "operator" | "api_key"; id: string; name: string };

export type ApprovalInfo = {
  id: string;
  status: ApprovalRow["status"];
  requiredBecause: string | null;
  reason: string | null;
  decidedBy: Party | null;
  decidedAt: string | null;
  expiresAt: string;
  createdAt: string;
};

export type CallSummary = {
  id: string;
  /** what was asked for: a tool call, a resource read, a prompt get */
  kind: CallKind;
  /** the gateway name asked for, `<server>__<tool>`; for a read its URI, for a prompt `<server>__<prompt>` */
  tool: string;
  serverId: string | null;
  serverName: string | null;
  toolName: string;
  effect: EffectClass;
  status: CallStatus;
  /** how it ended, as people read it: `status`, with a `succeeded` call whose tool answered isError as `tool_error` */
  outcome: CallOutcome;
  requester: Party;
  idempotencyKey: string | null;
  isError: boolean | null;
  error: { code: string; message: string } | null;
  approval: ApprovalInfo | null;
  /** the allow rule that let it run without waiting for an approver */
  allowedByRule: string | null;
  durationMs: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export type CallDto = CallSummary & {
  /** as stored: secret values replaced by [redacted]; what ran, when an approver edited them */
  arguments: Record<string, unknown>;
  /** set when an approver changed the arguments before approving: what was asked, which fields differ */
  argumentEdit: ArgumentEditInfo | null;
  /** bounded and scrubbed; null until the call finished. An edited call's ends with a note saying so. */
  result: BoundedResult | null;
};

const requesterPrincipal = alias(principals, "requester_principal");
const requesterUser = alias(users, "requester_user");
const deciderUser = alias(users, "decider_user");
const deciderKey = alias(apiKeys, "decider_key");

/** The one query behind every call read; `where` narrows it (always tenant-scoped by the caller). */
export function selectCallViews(db: Queryable, where: SQL | undefined) {
  return db
    .select({
      call: calls,
      serverName: mcpServers.name,
      requesterName: requesterPrincipal.name,
      requesterUserName: requesterUser.name,
      approval: approvals,
      deciderUserName: deciderUser.name,
      deciderKeyName: deciderKey.name,
    })
    .from(calls)
    .leftJoin(mcpServers, eq(mcpServers.id, calls.serverId))
    .leftJoin(
      requesterPrincipal,
      and(eq(calls.requesterKind, "principal"), eq(requesterPrincipal.id, calls.requesterId)),
    )
    .leftJoin(
      requesterUser,
      and(eq(calls.requesterKind, "operator"), eq(requesterUser.id, calls.requesterId)),
    )
    .leftJoin(approvals, eq(approvals.callId, calls.id))
    .leftJoin(deciderUser, eq(deciderUser.id, approvals.decidedBy))
    .leftJoin(deciderKey, eq(deciderKey.id, approvals.decidedBy))
    .where(where)
    .$dynamic();
}

type SelectedRow = Awaited<ReturnType<typeof selectCallViews>>[number];

export function toCallView(row: SelectedRow): CallView {
  return {
    call: row.call,
    serverName: row.serverName,
    requesterName: row.requesterName ?? row.requesterUserName,
    approval: row.approval,
    deciderUserName: row.deciderUserName,
    deciderKeyName: row.deciderKeyName,
  };
}

export async function loadCallView(
  db: Queryable,
  params: { tenantId: string; callId: string },
): Promise<CallView | undefined> {
  const [row] = await selectCallViews(
    db,
    and(eq(calls.tenantId, params.tenantId), eq(calls.id, params.callId)),
  );
  return row ? toCallView(row) : undefined;
}

export function requesterOf(view: CallView): Party {
  const { call } = view;
  const fallback = call.requesterKind === "principal" ? "(deleted principal)" : "(former operator)";
  return { kind: call.requesterKind, id: call.requesterId, name: view.requesterName ?? fallback };
}

export function toApprovalInfo(view: CallView): ApprovalInfo | null {
  const approval = view.approval;
  if (!approval) return null;
  const decidedBy: Party | null = !approval.decidedBy
    ? null
    : view.deciderKeyName !== null
      ? { kind: "api_key", id: approval.decidedBy, name: `API key "${view.deciderKeyName}"` }
      : { kind: "operator", id: approval.decidedBy, name: view.deciderUserName ?? "(former operator)" };
  return {
    id: approval.id,
    status: approval.status,
    requiredBecause: approval.requiredBecause,
    reason: approval.reason,
    decidedBy,
    decidedAt: approval.decidedAt?.toISOString() ?? null,
    expiresAt: approval.expiresAt.toISOString(),
    createdAt: approval.createdAt.toISOString(),
  };
}

export function toCallSummary(view: CallView): CallSummary {
  const { call } = view;
  const result = call.result as BoundedResult | null;
  const isError = result ? result.isError === true : null;
  return {
    id: call.id,
    kind: call.kind,
    tool: call.gatewayName,
    serverId: call.serverId,
    serverName: view.serverName,
    toolName: call.toolName,
    effect: call.effect as EffectClass,
    status: call.status,
    outcome: outcomeOf(call.status, isError, call.errorCode),
    requester: requesterOf(view),
    idempotencyKey: call.idempotencyKey,
    isError,
    error: call.errorCode ? { code: call.errorCode, message: call.errorMessage ?? "" } : null,
    approval: toApprovalInfo(view),
    allowedByRule: call.allowedByRule,
    durationMs: call.durationMs,
    createdAt: call.createdAt.toISOString(),
    startedAt: call.startedAt?.toISOString() ?? null,
    finishedAt: call.finishedAt?.toISOString() ?? null,
  };
}

export function toCallDto(view: CallView): CallDto {
  const { call } = view;
  const argumentEdit = argumentEditOf(call.requestedArguments ?? null, call.arguments);
  const result = (call.result as BoundedResult | null) ?? null;
  return {
    ...toCallSummary(view),
    arguments: call.arguments,
    argumentEdit,
    // Every reader of the result (gateway, REST, CLI, dashboard) learns of the edit the same way.
    result:
      result && argumentEdit && call.kind === "tool_call"
        ? (withEditNote(result, argumentEdit, call.arguments) as BoundedResult)
        : result,
  };
}

export const finishedStatuses: readonly CallStatus[] = [
  "denied",
  "expired",
  "succeeded",
  "failed",
  "cancelled",
];
export const isFinished = (status: CallStatus) => finishedStatuses.includes(status);
