import { and, eq, gt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { approvals, calls } from "@/db/schema";
import { type AuditActor, recordAudit } from "@/lib/auth/audit";
import { recordCallEvent } from "@/lib/calls/call-events";
import { type CallDto, type CallView, loadCallView, toApprovalInfo, toCallDto } from "@/lib/calls/call-view";
import { runApprovedCall } from "@/lib/calls/run-approved-call";
import { startDeadline } from "@/lib/calls/unstarted-calls";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { faultPoint } from "@/lib/fault-point";
import { log } from "@/lib/observability/log";
import { parseOrThrow } from "@/lib/validation";
import { allowRuleTermSchema, expiryOf, insertAllowRule } from "./allow-rules";
import { expireDueApprovals } from "./close-pending";
import { selfApprovalRefusal } from "./decision-rights";
import { describeEdit } from "./edit-note";
import { type ArgumentEdit, prepareArgumentEdit } from "./edited-arguments";
import type { Decider } from "./people-behind";

/**
 * An approval is decided exactly once: one conditional update from "pending" (and not yet
 * expired) wins; any other decision — a second click, a race with another approver, a decision
 * after expiry — changes nothing and is a 409 that says what happened instead.
 *
 * The decision, the call's new status, the claim to start it and its event are one transaction: an
 * approved call names this process as its runner and the moment it must start by (the approval may
 * set `startWithinSeconds`, else SWITCHBOARD_APPROVED_START_SECONDS), and call.approved wakes the
 * waiting caller wherever it waits. The call then runs on this process unless the caller's process
 * claims it first; should this process stop before either, the stopped-runner sweep hands it on,
 * and past its deadline it expires instead of running late (lib/calls/unstarted-calls.ts).
 */

export type { Decider } from "./people-behind";

export const decideInputSchema = z.strictObject({
  reason: z.string().trim().max(2000, { error: "Keep the reason under 2000 characters." }).optional(),
  /** approving: how long the call may take to start before it expires unstarted (default: the setting) */
  startWithinSeconds: z
    .number({ error: "startWithinSeconds must be a number of seconds." })
    .int()
    .min(1)
    .max(86_400, { error: "startWithinSeconds is at most 86400 (a day)." })
    .optional(),
  /** decide the item's pending duplicates the same way (lib/approvals/decide-group.ts) */
  withDuplicates: z.boolean({ error: "withDuplicates is true or false." }).optional(),
  /**
   * approving: the arguments to run the call with instead of the requested ones — the whole set, as
   * shown ([redacted] where a secret was left unchanged). Same tool; checked against its input schema.
   */
  arguments: z
    .record(z.string(), z.unknown(), { error: "arguments must be a JSON object." })
    .optional()
    .meta({
      description:
        "Approve only: run the call with these arguments instead (the whole set; a [redacted] value left as shown keeps the caller's secret). Same tool; checked against its input schema. Not with withDuplicates.",
    }),
  /**
   * approving: also let the call's principal call this tool without an approver for a while
   * ({durationMinutes | until, conditions?}), in the same transaction (lib/approvals/allow-rules.ts)
   */
  allowRule: allowRuleTermSchema.optional(),
});

export async function decideApproval(
  db: Database,
  params: {
    tenantId: string;
    /** the approval's id, or the id of its call */
    id: string;
    decision: "approve" | "deny";
    input: unknown;
    decider: Decider;
    /** who decides, as the audit log names them: needed to make an allow rule */
    by?: AuditActor;
  },
): Promise<CallDto> {
  const {
    reason,
    startWithinSeconds,
    arguments: edited,
    allowRule,
  } = parseOrThrow(decideInputSchema, params.input ?? {}, "The decision");
  if (edited && params.decision !== "approve")
    throw new AppError("validation", "Arguments can be edited only when approving; a denial runs nothing.");
  const view = await findApprovalOrThrow(db, params);
  if (allowRule) {
    // Checked before anything is decided: a rule that cannot be made leaves the approval pending.
    expiryOf(allowRule);
    assertRuleFits(params.decision, view);
  }
  const approvalId = view.approval?.id ?? "";
  // Prepared before the decision (it reads the tool's schema and opens the sealed arguments); written
  // with it, in its transaction. A decided approval skips it and ends as the conflict it is.
  const edit: ArgumentEdit | undefined =
    edited && view.approval?.status === "pending"
      ? await prepareArgumentEdit(db, { view, edited })
      : undefined;

  const now = new Date();
  const status = params.decision === "approve" ? "approved" : "denied";
  const after = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(approvals)
      .set({ status, reason: reason || null, decidedBy: params.decider.id, decidedAt: now })
      .where(and(eq(approvals.id, approvalId), eq(approvals.status, "pending"), gt(approvals.expiresAt, now)))
      .returning({ callId: approvals.callId });
    if (!row) return undefined;
    // Checked once the approval is ours, in the same transaction: a refusal rolls the decision
    // back, and an approve and a deny race on the update alone, neither slowed by the check.
    await assertMayDecide(tx, { ...params, view });
    if (allowRule)
      await insertAllowRule(tx, {
        tenantId: params.tenantId,
        principalId: view.call.requesterId,
        tool: view.call.gatewayName,
        term: allowRule,
        by: params.by ?? null,
        sourceCallId: view.call.id,
      });
    await tx
      .update(calls)
      .set(
        status === "approved"
          ? {
              status,
              startBy: startDeadline(now, startWithinSeconds),
              // This process will start it (see calls.runner and lib/calls/stopped-runners.ts).
              runner: sql`current_setting('application_name')`,
              ...(edit && {
                arguments: edit.arguments,
                sealedArguments: edit.sealedArguments,
                requestedArguments: edit.requestedArguments,
              }),
            }
          : {
              status,
              finishedAt: now,
              sealedArguments: null,
              errorCode: "policy_denied",
              errorMessage: reason ? `Denied: ${reason}` : "Denied by an approver.",
            },
      )
      .where(and(eq(calls.id, row.callId), eq(calls.status, "pending_approval")));
    const decided = await reload(tx, params.tenantId, view.call.id);
    const decidedBy = toApprovalInfo(decided)?.decidedBy?.name ?? params.decider.id;
    await recordCallEvent(
      tx,
      decided,
      status === "approved"
        ? {
            type: "call.approved",
            decidedBy,
            reason: reason || null,
            ...(edit && { editedFields: edit.editedFields }),
          }
        : { type: "call.denied", decidedBy, reason: reason || "Denied by an approver." },
    );
    if (edit)
      await recordAudit(tx, {
        tenantId: params.tenantId,
        action: "call.arguments_edited",
        actorKind: params.decider.kind,
        actorId: params.decider.id,
        actorName: decidedBy,
        subject: decided.call.id,
        // Both versions as stored (scrubbed), field by field.
        detail: describeEdit(
          decided.call.gatewayName,
          edit.requestedArguments,
          edit.arguments,
          edit.editedFields,
        ),
      });
    return decided;
  });
  if (!after) throw await explainConflict(db, { tenantId: params.tenantId, view });

  if (status === "approved") {
    faultPoint("AFTER_DECISION");
    runApprovedCall(db, { tenantId: params.tenantId, callId: after.call.id }).catch((error: unknown) =>
      log.error(
        { callId: after.call.id },
        `call ${after.call.id}: could not start (${(error as Error).name})`,
      ),
    );
  }
  return toCallDto(after);
}

/** A rule is made only when approving a tool call of a principal (operators need no rules). */
function assertRuleFits(decision: "approve" | "deny", view: CallView): void {
  if (decision !== "approve")
    throw new AppError("validation", "An allow rule is made only when approving.", {
      fieldErrors: { allowRule: ["Only when approving."] },
    });
  if (view.call.requesterKind !== "principal" || view.call.kind !== "tool_call")
    throw new AppError("validation", "Allow rules are for tool calls of principals; this call is not one.", {
      fieldErrors: { allowRule: ["Not for this call."] },
    });
}

async function findApprovalOrThrow(
  db: Database,
  params: { tenantId: string; id: string },
): Promise<CallView> {
  const [row] = await db
    .select({ callId: approvals.callId })
    .from(approvals)
    .where(
      and(
        eq(approvals.tenantId, params.tenantId),
        or(eq(approvals.id, params.id), eq(approvals.callId, params.id)),
      ),
    );
  const view = row && (await loadCallView(db, { tenantId: params.tenantId, callId: row.callId }));
  if (!view?.approval)
    throw new AppError("not_found", "There is no approval with that id in this workspace.");
  return view;
}

/**
 * "Nobody approves their own call", when the workspace says so: the person behind the decision
 * (the operator, or the creator of the key used) must not be a person behind the call
 * (lib/approvals/people-behind.ts). Denying stays possible.
 */
async function assertMayDecide(
  db: Queryable,
  params: { tenantId: string; decision: "approve" | "deny"; decider: Decider; view: CallView },
): Promise<void> {
  if (params.decision !== "approve") return;
  const refusal = await selfApprovalRefusal(db, params);
  if (refusal) throw new AppError("forbidden", refusal);
}

/** Nothing was updated: say why, after expiring the approval if that is what happened. */
async function explainConflict(
  db: Database,
  params: { tenantId: string; view: CallView },
): Promise<AppError> {
  await expireDueApprovals(db, { tenantId: params.tenantId, callIds: [params.view.call.id] });
  const info = toApprovalInfo(await reload(db, params.tenantId, params.view.call.id));
  const when = info?.decidedAt ?? "an earlier moment";
  switch (info?.status) {
    case "approved":
    case "denied":
      return new AppError(
        "conflict",
        `This call was already ${info.status} by ${info.decidedBy?.name ?? "someone"} at ${when}.`,
      );
    case "expired":
      return new AppError("conflict", `This approval expired at ${info.expiresAt}; the call will not run.`);
    case "cancelled":
      return new AppError("conflict", `The caller withdrew this call at ${when}.`);
    default:
      return new AppError("conflict", "This approval is no longer pending.");
  }
}

async function reload(db: Queryable, tenantId: string, callId: string): Promise<CallView> {
  const view = await loadCallView(db, { tenantId, callId });
  if (!view) throw new AppError("not_found", "The call was deleted.");
  return view;
}
