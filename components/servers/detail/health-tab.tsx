"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { cellClass, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { formatLatency } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import { Time } from "@/components/ui/time";
import { serverDiagnosticsQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";
import { LatencyChart } from "./latency-chart";

export function HealthTab({ name }: { name: string }) {
  const { data, error } = useQuery({ ...serverDiagnosticsQuery(name), refetchInterval: useServerPoll() });
  if (!data) return <QueryFallback error={error} what="health history" />;
  const history = data.healthHistory; // newest first
  if (history.length === 0) {
    return (
      <EmptyState title="No health checks yet">
        Switchboard probes each enabled server on its health interval; results appear here with their latency.
      </EmptyState>
    );
  }

  const okCount = history.filter((check) => check.ok).length;
  const latencies = history.flatMap((c) => (c.ok && c.latencyMs !== null ? [c.latencyMs] : []));
  const median = latencies.length
    ? [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)]
    : null;
  const lastProbe = data.live?.lastHealth?.probe;
  // Each replica probes on its own: say which one did, once there is more than one in the history.
  const showsReplica = new Set(history.map((check) => check.replica)).size > 1;

  // Without a successful check there is no latency to speak of: say so rather than print figures.
  const latencyNote = median === null ? "no successful checks" : `median ${formatLatency(median)}`;
  return (
    <div>
      <SectionTitle
        aside={`${okCount} of ${history.length} ok · ${latencyNote}${lastProbe ? ` · probe ${lastProbe}` : ""}`}
      >
        Latency, {history.length === 1 ? "last check" : `last ${history.length} checks`}
      </SectionTitle>
      <LatencyChart checks={[...history].reverse()} />
      <SectionTitle>History</SectionTitle>
      <DataTable columns={["Checked at", ...(showsReplica ? ["Replica"] : []), "Result", "Latency", "Error"]}>
        {history.map((check) => (
          <tr key={`${check.checkedAt} ${check.replica}`}>
            <td className={`${cellClass} whitespace-nowrap text-slate-700`}>
              <Time iso={check.checkedAt} />
            </td>
            {showsReplica ? (
              <td className={`${cellClass} whitespace-nowrap font-mono text-xs text-slate-700`}>
                {check.replica ?? "—"}
              </td>
            ) : null}
            <td className={cellClass}>
              {check.ok ? <Badge tone="green">ok</Badge> : <Badge tone="red">failed</Badge>}
            </td>
            <td className={`${cellClass} whitespace-nowrap font-mono text-xs text-slate-700`}>
              {formatLatency(check.latencyMs)}
            </td>
            <td className={`${cellClass} max-w-lg break-words text-xs text-red-700`}>{check.error ?? ""}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
