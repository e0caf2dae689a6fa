import { type CallView, loadCallView } from "@/lib/calls/call-view";
import type { Queryable } from "@/lib/db/client";
import { getApprovalPolicy } from "@/lib/policy/approval-rules";
import { type Decider, peopleBehindCall, personBehindDecider } from "./people-behind";

/**
 * Who may decide a held call, said before anyone clicks: the call page and the Playground show
 * Approve / Deny only to people who may, and say why Approve is not theirs when it is not. The same
 * check refuses the decision itself (decide-approval.ts), so what a page offers cannot drift from
 * what the service allows.
 */

export type DecisionRights = {
  /** the member's role lets them decide approvals (approver or admin) */
  canDecide: boolean;
  /** why this member may not approve this call (denying stays possible); null when they may */
  approveRefusal: string | null;
};

/** "No self-approval", in words: what it forbids here and who can change it. */
export function selfApprovalMessage(
  requesterKind: "principal" | "operator",
  deciderKind: Decider["kind"],
): string {
  const how =
    requesterKind === "operator" ? "you requested it" : "it came from a principal whose API key you created";
  const through = deciderKind === "api_key" ? " (an API key you created counts as you)" : "";
  return `No self-approval: this workspace does not let people approve their own calls, and ${how}${through}. Ask another approver; an admin can change this rule in Settings → Approvals.`;
}

/**
 * Why `decider` may not approve this call under "no self-approval" (the person behind the decision —
 * the operator, or the creator of the key used — is a person behind the call), or null.
 */
export async function selfApprovalRefusal(
  db: Queryable,
  params: { tenantId: string; view: CallView; decider: Decider },
): Promise<string | null> {
  const decider = await personBehindDecider(db, params);
  if (decider === null) return null;
  if (!(await peopleBehindCall(db, params)).includes(decider)) return null;
  const policy = await getApprovalPolicy(db, params);
  if (!policy.forbidSelfApproval) return null;
  return selfApprovalMessage(params.view.call.requesterKind, params.decider.kind);
}

/** What a signed-in member may do with this call's pending approval (none pending: nothing to refuse). */
export async function decisionRightsFor(
  db: Queryable,
  params: { tenantId: string; callId: string; userId: string; canDecide: boolean },
): Promise<DecisionRights> {
  if (!params.canDecide) return { canDecide: false, approveRefusal: null };
  const view = await loadCallView(db, params);
  if (view?.approval?.status !== "pending") return { canDecide: true, approveRefusal: null };
  const approveRefusal = await selfApprovalRefusal(db, {
    tenantId: params.tenantId,
    view,
    decider: { kind: "operator", id: params.userId },
  });
  return { canDecide: true, approveRefusal };
}

/**
 * The same, for the member's own calls (the Playground's): no query per call, since the person
 * behind an operator's call is that operator.
 */
export async function ownCallRights(
  db: Queryable,
  params: { tenantId: string; canDecide: boolean },
): Promise<DecisionRights> {
  if (!params.canDecide) return { canDecide: false, approveRefusal: null };
  const policy = await getApprovalPolicy(db, params);
  return {
    canDecide: true,
    approveRefusal: policy.forbidSelfApproval ? selfApprovalMessage("operator", "operator") : null,
  };
}
