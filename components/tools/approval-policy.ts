import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { decideApprovalGate } from "@/lib/policy/approval-gate";
import type { ApprovalPolicy } from "@/lib/policy/types";
import { type GovernedToolDto, toolKeys } from "./tool-queries";

// Under the tools key: only read here to predict a tool's approval, and refreshed with the catalog.
export const approvalPolicyKey = [...toolKeys.all, "approval-policy"] as const;

export const approvalPolicyQuery = () =>
  queryOptions({
    queryKey: approvalPolicyKey,
    queryFn: () => fetchJson<{ policy: ApprovalPolicy }>("/api/v1/policy/approvals").then((r) => r.policy),
  });

/** Whether a call to the tool will wait for a person, for display: the server's own gate, applied here. */
export function predictApproval(
  tool: Pick<GovernedToolDto, "approvalRule" | "isClassified" | "enforcedEffect">,
  policy: Pick<ApprovalPolicy, "requireApprovalFor">,
): boolean {
  const decision = decideApprovalGate({
    effect: tool.enforcedEffect,
    isClassified: tool.isClassified,
    rule: tool.approvalRule,
    policy,
  });
  return decision.kind === "needs_approval";
}
