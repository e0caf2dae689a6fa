"use client";

import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import type { GovernedToolDto } from "./tool-queries";
import { useUpdateTool } from "./use-update-tool";

/**
 * Quarantine: every call of the tool is refused (gateway, REST, playground) until an admin reviews
 * it and clears this — the answer to a tool any caller can use to crash its server. Crashes only
 * suggest it; an admin decides. Clearing is audited.
 */
export function QuarantineControl({ tool, canManage }: { tool: GovernedToolDto; canManage: boolean }) {
  const update = useUpdateTool(tool);
  const { quarantine } = tool;
  const crashes = tool.recentCrashes === 1 ? "once" : `${tool.recentCrashes} times`;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      {quarantine ? (
        <span className="text-red-800">
          Quarantined: calls refused until reviewed (since <Time iso={quarantine.at} />
          {quarantine.by ? `, by ${quarantine.by}` : ""}
          {quarantine.reason ? `: ${quarantine.reason}` : ""}).
        </span>
      ) : tool.recentCrashes > 0 ? (
        <Badge tone={tool.isQuarantineSuggested ? "red" : "amber"}>
          crashed its server {crashes} in 24 h{tool.isQuarantineSuggested ? " · consider quarantine" : ""}
        </Badge>
      ) : null}
      {canManage ? (
        <button
          type="button"
          disabled={update.isPending}
          onClick={() =>
            update.mutate(
              quarantine
                ? { quarantined: false }
                : {
                    quarantined: true,
                    ...(tool.recentCrashes > 0
                      ? { quarantineReason: `crashed its server ${crashes} in 24 h` }
                      : {}),
                  },
            )
          }
          className="font-medium text-indigo-700 hover:underline disabled:opacity-60"
        >
          {quarantine ? "Reviewed: clear quarantine" : "Quarantine (refuse until reviewed)"}
        </button>
      ) : null}
      {update.error ? (
        <p role="alert" className="text-red-700">
          {update.error.message}
        </p>
      ) : null}
    </div>
  );
}
