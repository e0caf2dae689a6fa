import { and, eq } from "drizzle-orm";
import { approvals, type CallKind, calls } from "@/db/schema";
import { canonicalJson } from "@/lib/catalog/hashing";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { CallTarget, Decision } from "./call-decision";
import { recordCallEvent } from "./call-events";
import { type CallView, loadCallView } from "./call-view";
import type { Requester } from "./requester";
import { startDeadline } from "./unstarted-calls";

/** What a record needs of the target: a tool (CallTarget), or a server's resource or prompt. */
export type RecordTarget = Pick<CallTarget, "serverId" | "serverName" | "toolName" | "effect">;

export type NewCall = {
  id: string;
  tenantId: string;
  requester: Requester;
  /** a tool call unless said otherwise */
  kind?: CallKind;
  gatewayName: string;
  target: RecordTarget | undefined;
  decision: Decision;
  /** scrubbed */
  arguments: Record<string, unknown>;
  sealedArguments: string | null;
  idempotencyKey: string | undefined;
  expirySeconds: number;
  /** the allow rule that turned "needs approval" into "allow" (lib/approvals/allow-rule-match.ts) */
  allowedByRule?: string;
};

/**
 * Persists a decided call (and its approval when one is needed), then records what happened.
 * With an idempotency key already used by this requester, nothing is written: the earlier call
 * comes back instead (`created: false`) — also when two requests race with the same key.
 */
export async function recordCall(db: Database, call: NewCall): Promise<{ view: CallView; created: boolean }> {
  const inserted = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(calls)
      .values(toCallValues(call))
      .onConflictDoNothing({ target: [calls.tenantId, calls.requesterId, calls.idempotencyKey] })
      .returning();
    if (!row) return undefined;
    if (call.decision.kind !== "needs_approval") return { row, approval: null };
    const [approval] = await tx
      .insert(approvals)
      .values({
        tenantId: call.tenantId,
        callId: row.id,
        requiredBecause: call.decision.reason,
        // Set here rather than by the database: millisecond times keep paging cursors exact.
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + call.expirySeconds * 1000),
      })
      .returning();
    return { row, approval: approval ?? null };
  });
  if (!inserted) {
    const repeated = await findRepeatedCall(db, call);
    if (!repeated) throw new AppError("internal", "The call of that idempotency key vanished.");
    return { view: repeated, created: false };
  }
  // The view of what was just written, without reading it back: a new call has no decider yet,
  // its server and requester are the ones the decision was made for.
  const view: CallView = {
    call: inserted.row,
    serverName: call.target?.serverName ?? null,
    requesterName: call.requester.name,
    approval: inserted.approval,
    deciderUserName: null,
    deciderKeyName: null,
  };
  await recordDecisionEvents(db, view, call.decision);
  return { view, created: true };
}

/** The call an idempotency key already names; another tool or other arguments under it is a conflict. */
export async function findRepeatedCall(
  db: Database,
  call: Pick<NewCall, "tenantId" | "requester" | "idempotencyKey" | "gatewayName" | "arguments">,
): Promise<CallView | undefined> {
  if (call.idempotencyKey === undefined) return undefined;
  const [row] = await db
    .select({ id: calls.id, gatewayName: calls.gatewayName, arguments: calls.arguments })
    .from(calls)
    .where(
      and(
        eq(calls.tenantId, call.tenantId),
        eq(calls.requesterId, call.requester.id),
        eq(calls.idempotencyKey, call.idempotencyKey),
      ),
    );
  if (!row) return undefined;
  if (
    row.gatewayName !== call.gatewayName ||
    canonicalJson(row.arguments) !== canonicalJson(call.arguments)
  ) {
    throw new AppError(
      "conflict",
      `The idempotency key "${call.idempotencyKey}" was already used for another call (${row.id}); use a new key for a different tool or arguments.`,
    );
  }
  return loadCallView(db, { tenantId: call.tenantId, callId: row.id });
}

export function toCallValues(call: NewCall): typeof calls.$inferInsert {
  const now = new Date();
  const denied = call.decision.kind === "deny";
  return {
    id: call.id,
    tenantId: call.tenantId,
    requesterKind: call.requester.kind,
    requesterId: call.requester.id,
    kind: call.kind ?? "tool_call",
    serverId: call.target?.serverId ?? null,
    toolName: call.target?.toolName ?? (call.gatewayName.split("__").slice(1).join("__") || call.gatewayName),
    gatewayName: call.gatewayName,
    effect: call.target?.effect ?? "external-write",
    arguments: call.arguments,
    // A refused call will never run: its arguments need no sealing.
    sealedArguments: denied ? null : call.sealedArguments,
    status: statusAfter(call.decision),
    idempotencyKey: call.idempotencyKey ?? null,
    allowedByRule: call.allowedByRule ?? null,
    // Allowed by policy: approved now, so it must start soon too (lib/calls/unstarted-calls.ts).
    startBy: call.decision.kind === "allow" ? startDeadline(now) : null,
    ...(call.decision.kind === "deny"
      ? {
          errorCode: call.decision.code ?? "policy_denied",
          errorMessage: call.decision.reason,
          finishedAt: now,
        }
      : {}),
    createdAt: now,
  };
}

function statusAfter(decision: Decision) {
  switch (decision.kind) {
    case "allow":
      return "approved" as const;
    case "deny":
      return "denied" as const;
    case "needs_approval":
      return "pending_approval" as const;
  }
}

async function recordDecisionEvents(db: Database, view: CallView, decision: Decision): Promise<void> {
  const rule = view.call.allowedByRule;
  await recordCallEvent(db, view, { type: "call.requested", ...(rule ? { allowedByRule: rule } : {}) });
  switch (decision.kind) {
    case "allow":
      return;
    case "deny":
      await recordCallEvent(db, view, {
        type: "call.denied",
        decidedBy: null,
        reason: decision.reason,
        ...(decision.code ? { code: decision.code } : {}),
      });
      return;
    case "needs_approval":
      await recordCallEvent(db, view, {
        type: "call.approval_required",
        reason: decision.reason,
        expiresAt: view.approval?.expiresAt.toISOString() ?? "",
      });
      return;
  }
}
