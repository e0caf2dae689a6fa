import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ApprovalPolicy } from "@/lib/policy/approval-rules";
import { type GovernedToolDto, toolKeys } from "./tool-queries";

// Under the tools key: only read here to predict a tool's approval, and refreshed with the catalog.
export const approvalPolicyKey = [...toolKeys.all, "approval-policy"] as const;

export const approvalPolicyQuery = () =>
  queryOptions({
    queryKey: approvalPolicyKey,
    queryFn: () => fetchJson<{ policy: ApprovalPolicy }>("/api/v1/policy/approvals").then((r) => r.policy),
  });

/**
 * Whether a call to the tool will wait for a person, for display only: the server decides on
 * every call (lib/policy/approval-rules decideApprovalGate) and this must read the same way —
 * "never" is ignored while the tool is unclassified, because that trust was in a reviewed definition.
 */
export function predictApproval(
  tool: Pick<GovernedToolDto, "approvalRule" | "isClassified" | "enforcedEffect">,
  policy: Pick<ApprovalPolicy, "requireApprovalFor">,
): boolean {
  if (tool.approvalRule === "always") return true;
  if (tool.approvalRule === "never" && tool.isClassified) return false;
  return policy.requireApprovalFor.includes(tool.enforcedEffect);
}
