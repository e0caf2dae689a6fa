"use client";

import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { revokeAllowRuleAction } from "@/app/(dashboard)/approvals/actions";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import { useNow } from "@/components/calls/use-now";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { Badge, type Tone } from "@/components/ui/badge";
import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";
import { cellClass, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { Time } from "@/components/ui/time";
import type { AllowRuleDto } from "@/lib/approvals/types";
import { fetchJson } from "@/lib/client/fetch-json";

export const allowRuleKeys = { all: ["allow-rules"] as const };
const liveKeys = [allowRuleKeys.all] as const;

export const allowRulesQuery = () =>
  queryOptions({
    queryKey: allowRuleKeys.all,
    queryFn: () => fetchJson<{ allowRules: AllowRuleDto[] }>("/api/v1/allow-rules"),
  });

const statusTones: Record<AllowRuleDto["status"], Tone> = {
  active: "green",
  expired: "slate",
  revoked: "red",
};

/** Approvals → Rules: every allow rule, live from allow_rule.* events; revoke for admins and a rule's maker. */
export function AllowRulesView({ canManage, userId }: { canManage: boolean; userId: string }) {
  const queryClient = useQueryClient();
  const { data, error } = useQuery(allowRulesQuery());
  const status = useLiveInvalidation({ type: "allow_rule." }, () => liveKeys, liveKeys);
  // A rule runs out on its own: shown as expired the moment it does, without a refetch.
  const now = useNow(1000);
  const refresh = () => queryClient.invalidateQueries({ queryKey: allowRuleKeys.all });

  return (
    <div>
      <div className="mb-4">
        <ConnectionBadge status={status} />
      </div>
      {!data ? (
        <QueryFallback error={error} what="the allow rules" />
      ) : data.allowRules.length === 0 ? (
        <EmptyState title="No allow rules yet">
          When approving a call, choose “Allow later calls” to let the same agent call the same tool without
          waiting for a while. Rules never go beyond the agent’s grants.
        </EmptyState>
      ) : (
        <DataTable
          caption="Allow rules"
          columns={["Agent", "Tool", "Only when", "Status", "Until", "Made by", ""]}
        >
          {data.allowRules.map((rule) => {
            const shown =
              rule.status === "active" && Date.parse(rule.expiresAt) <= now ? "expired" : rule.status;
            const mayRevoke = shown === "active" && (canManage || rule.createdBy.id === userId);
            return (
              <tr
                key={rule.id}
                id={`rule-${rule.id}`}
                data-testid="allow-rule-row"
                className="target:bg-amber-50"
              >
                <td className={cellClass}>{rule.principal.name}</td>
                <td className={`${cellClass} font-mono text-xs`}>{rule.tool}</td>
                <td className={cellClass}>
                  {rule.conditions.length === 0 ? (
                    <span className="text-slate-500">any arguments</span>
                  ) : (
                    <ul className="space-y-0.5">
                      {rule.conditions.map((c) => (
                        <li key={`${c.field}-${c.op}-${c.value}`} className="font-mono text-xs">
                          {c.field} {c.op === "equals" ? "=" : "matches"}{" "}
                          <span className="break-all text-slate-700">
                            {c.op === "equals" ? c.value : `/${c.value}/`}
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className={cellClass}>
                  <Badge tone={statusTones[shown]}>{shown}</Badge>
                </td>
                <td className={cellClass}>
                  <Time iso={rule.revokedAt ?? rule.expiresAt} />
                </td>
                <td className={cellClass}>
                  {rule.createdBy.name ?? "—"}
                  {rule.sourceCallId ? (
                    <Link
                      href={`/calls/${rule.sourceCallId}`}
                      className="ml-1 text-xs text-indigo-700 hover:underline"
                    >
                      (from a call)
                    </Link>
                  ) : null}
                </td>
                <td className={`${cellClass} text-right`}>
                  {mayRevoke ? (
                    <ConfirmButton
                      label="Revoke"
                      ariaLabel={`Revoke the rule for ${rule.principal.name} on ${rule.tool}`}
                      title={`Revoke the rule for ${rule.principal.name}?`}
                      confirmLabel="Revoke"
                      pendingLabel="Revoking…"
                      onConfirm={confirmAction(() => revokeAllowRuleAction(rule.id), refresh)}
                    >
                      Its next call of {rule.tool} waits for an approver again.
                    </ConfirmButton>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </div>
  );
}
