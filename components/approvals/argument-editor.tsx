"use client";

import { useQuery } from "@tanstack/react-query";
import { ArgsForm } from "@/components/playground/args-form";
import type { Args, FormErrors } from "@/components/playground/schema-form/form-values";
import { toolsListQuery } from "@/components/tools/tool-queries";
import type { ApprovalDto } from "@/lib/approvals/types";

/**
 * The held call's arguments, editable with the playground's schema-generated form (or as JSON),
 * submitted as an approval of the edited call. A secret the approver cannot see reads [redacted]:
 * left as it is, the caller's value still reaches the tool.
 */
export function ArgumentEditor({
  approval,
  isApproving,
  serverErrors,
  onApprove,
}: {
  approval: ApprovalDto;
  isApproving: boolean;
  serverErrors: FormErrors | undefined;
  onApprove: (args: Args) => void;
}) {
  const { data: tools, isPending, error } = useQuery(toolsListQuery());
  if (isPending) return <p className="text-sm text-slate-500">Loading the tool's input schema…</p>;
  const tool = tools?.find((t) => t.gatewayName === approval.call.tool);
  return (
    <div className="rounded-md border border-amber-200 bg-amber-50/40 p-3" data-testid="argument-editor">
      <p className="mb-3 text-xs text-slate-600">
        The caller will be told which fields you changed.
        {JSON.stringify(approval.call.arguments).includes("[redacted]")
          ? " A [redacted] value is a workspace secret: leave it as it is to keep the caller's value."
          : ""}
        {error || !tool
          ? " The tool's schema could not be loaded: edit as JSON; the server still checks it."
          : ""}
      </p>
      <ArgsForm
        tool={tool ?? { definition: { inputSchema: undefined } as never }}
        isRunning={isApproving}
        canRun
        onRun={onApprove}
        initialArgs={approval.call.arguments}
        submitLabels={["Approve with these arguments", "Approving…"]}
        serverErrors={serverErrors}
      />
    </div>
  );
}
