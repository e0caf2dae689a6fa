"use client";

import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { inputClass } from "@/components/ui/field";
import type { ApprovalRule } from "@/lib/policy/approval-gate";
import { approvalPolicyQuery, predictApproval } from "./approval-policy";
import type { GovernedToolDto } from "./tool-queries";
import { useUpdateTool } from "./use-update-tool";

const ruleLabels: Record<ApprovalRule, string> = {
  "by-effect": "By effect",
  always: "Always ask",
  never: "Never ask",
};
// Listed here rather than imported: lib/policy/approval-rules is server code (drizzle, the schema).
const approvalRules = Object.keys(ruleLabels) as ApprovalRule[];

/** The per-tool override of the workspace's approval rules, with what it means for this tool now. */
export function ApprovalRuleSelect({ tool, canManage }: { tool: GovernedToolDto; canManage: boolean }) {
  const update = useUpdateTool(tool);
  const { data: policy } = useQuery(approvalPolicyQuery());
  const id = useId();
  const isDormant = tool.approvalRule === "never" && !tool.isClassified;
  const isRule = (value: string): value is ApprovalRule =>
    (approvalRules as readonly string[]).includes(value);

  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-slate-500">
        Approval
      </label>
      <select
        id={id}
        value={(update.isPending && update.variables?.approvalRule) || tool.approvalRule}
        disabled={!canManage || update.isPending}
        title={canManage ? undefined : "Only admins change approval rules."}
        onChange={(event) =>
          isRule(event.target.value) && update.mutate({ approvalRule: event.target.value })
        }
        className={`${inputClass} mt-1 py-1 disabled:bg-slate-50 disabled:text-slate-500`}
      >
        {approvalRules.map((rule) => (
          // Skipping approval is trust in a reviewed definition: the service refuses it while unclassified.
          <option
            key={rule}
            value={rule}
            disabled={rule === "never" && !tool.isClassified && tool.approvalRule !== "never"}
          >
            {ruleLabels[rule]}
            {rule === "never" && !tool.isClassified ? " (classify first)" : ""}
          </option>
        ))}
      </select>
      {update.error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {update.error.message}
        </p>
      ) : isDormant ? (
        // Its definition changed after it was exempted: the exemption waits for a new review.
        <p className="mt-1 text-xs text-amber-800">
          "Never ask" takes effect once classified; until then calls go by {"external-write"}.
        </p>
      ) : policy ? (
        <p className="mt-1 text-xs text-slate-500">
          {predictApproval(tool, policy) ? "Calls wait for a person." : "Calls run without approval."}
        </p>
      ) : null}
    </div>
  );
}
