"use client";

import { useQuery } from "@tanstack/react-query";
import { ServerStatusBadge } from "@/components/servers/server-status-badge";
import { approvalPolicyQuery, predictApproval } from "@/components/tools/approval-policy";
import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { Badge } from "@/components/ui/badge";
import { EffectBadge } from "@/components/ui/tool-badges";

/** What the operator is about to call: its effect, its server, and whether a person must approve. */
export function SelectedTool({ tool }: { tool: GovernedToolDto }) {
  const { data: policy } = useQuery(approvalPolicyQuery());
  const needsApproval = policy ? predictApproval(tool, policy) : null;
  return (
    <div className="mt-3 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center gap-2">
        <code className="font-mono text-sm font-medium text-slate-900">{tool.gatewayName}</code>
        <EffectBadge effect={tool.effect} />
        {needsApproval === null ? null : needsApproval ? (
          <Badge tone="amber" title="By the workspace's approval rules; the server decides on the call">
            needs approval
          </Badge>
        ) : (
          <Badge tone="green" title="By the workspace's approval rules; the server decides on the call">
            runs without approval
          </Badge>
        )}
        <ServerStatusBadge status={tool.serverStatus} />
      </div>
      {tool.description ? (
        <p className="mt-1 line-clamp-3 whitespace-pre-line text-sm text-slate-600">{tool.description}</p>
      ) : null}
    </div>
  );
}
