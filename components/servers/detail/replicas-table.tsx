import { Badge } from "@/components/ui/badge";
import { cellClass, DataTable } from "@/components/ui/data-table";
import { SectionTitle } from "@/components/ui/section-title";
import { Time } from "@/components/ui/time";
import type { ReplicaSummary, ServerReplicaDto } from "@/lib/servers/types";
import { ServerStatusBadge } from "../server-status-badge";

/**
 * Each replica's own connection to the server, side by side: shown when more than one replica is on
 * record (a single process has nothing to compare). A replica gone silent keeps its last word,
 * marked as such; it counts for nothing.
 */
export function ReplicasTable({
  replicas,
  summary,
  answeredBy,
}: {
  replicas: readonly ServerReplicaDto[];
  summary: ReplicaSummary;
  /** the replica that answered this page's diagnostics, when known */
  answeredBy: string | undefined;
}) {
  if (replicas.length < 2) return null;
  return (
    <section className="mb-6" data-testid="server-replicas">
      <SectionTitle aside={`ready on ${summary.ready} of ${summary.of} live`}>Replicas</SectionTitle>
      <DataTable columns={["Replica", "State", "Last error", "Updated"]} caption="Each replica's state">
        {replicas.map((replica) => (
          <tr key={replica.id} data-testid={`replica-row-${replica.id}`}>
            <td className={`${cellClass} whitespace-nowrap`}>
              <code className="font-mono text-xs text-slate-900">{replica.id}</code>
              {replica.id === answeredBy ? (
                <span className="ml-2 text-xs text-slate-500">(this page)</span>
              ) : null}
            </td>
            <td className={cellClass}>
              <span className="flex flex-wrap items-center gap-1">
                <ServerStatusBadge status={replica.state} />
                {replica.live ? null : (
                  <Badge tone="slate" title="No heartbeat for 20 s or more: it crashed or lost the database">
                    gone silent
                  </Badge>
                )}
              </span>
            </td>
            <td className={`${cellClass} max-w-md break-words text-xs text-red-700`}>
              {replica.lastError ? (
                <span className="line-clamp-2" title={replica.lastError}>
                  {replica.lastError}
                </span>
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </td>
            <td className={`${cellClass} whitespace-nowrap text-xs text-slate-700`}>
              <Time iso={replica.updatedAt} />
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
