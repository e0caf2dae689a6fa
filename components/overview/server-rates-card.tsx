import Link from "next/link";
import { errorTone, formatPerMinute, formatShare } from "@/components/calls/stats-format";
import { formatLatency } from "@/components/ui/format";
import type { ServerCallStats } from "@/lib/calls/types";
import { Card } from "./card";

/** Per server, the last hour: how often it is called, how often that goes wrong, and how long it takes. */
export function ServerRatesCard({ servers }: { servers: ServerCallStats[] }) {
  const busiest = Math.max(1, ...servers.map((s) => s.calls));
  return (
    <Card title="Calls by server · last hour" testId="overview-server-rates">
      {servers.length === 0 ? (
        <p className="text-sm text-slate-500">No calls in the last hour.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs font-medium text-slate-500">
                <th className="py-1 pr-3 font-medium">Server</th>
                <th className="py-1 pr-3 font-medium">Calls</th>
                <th className="py-1 pr-3 text-right font-medium">per min</th>
                <th className="py-1 pr-3 text-right font-medium">Errors</th>
                <th className="py-1 pr-3 text-right font-medium">p50</th>
                <th className="py-1 text-right font-medium">p95</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {servers.map((server) => (
                <tr
                  key={server.serverId ?? "deleted"}
                  data-testid={`server-rate-${server.serverName ?? "deleted"}`}
                >
                  <td className="py-1.5 pr-3">
                    {server.serverName ? (
                      <Link
                        href={`/servers/${encodeURIComponent(server.serverName)}`}
                        className="font-mono text-xs font-medium text-slate-900 hover:text-indigo-700 hover:underline"
                      >
                        {server.serverName}
                      </Link>
                    ) : (
                      <span className="text-xs text-slate-500 italic">deleted server</span>
                    )}
                  </td>
                  <td className="py-1.5 pr-3">
                    <span className="flex items-center gap-2">
                      <span aria-hidden className="h-2 w-24 overflow-hidden rounded-sm bg-slate-100">
                        <span
                          className="block h-full bg-indigo-400"
                          style={{ width: `${(server.calls / busiest) * 100}%` }}
                        />
                      </span>
                      <span className="tabular-nums text-slate-900">{server.calls}</span>
                    </span>
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">
                    {formatPerMinute(server.callsPerMinute)}
                  </td>
                  <td
                    className={`py-1.5 pr-3 text-right tabular-nums ${errorTone(server.errorRate)}`}
                    title={`${server.errors} of ${server.calls} failed or answered with a tool error`}
                  >
                    {formatShare(server.errorRate)}
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{formatLatency(server.p50Ms)}</td>
                  <td className="py-1.5 text-right tabular-nums">{formatLatency(server.p95Ms)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-500">
            Errors: calls that failed or whose tool answered with an error. p50/p95: run time of the calls
            that ran.
          </p>
        </div>
      )}
    </Card>
  );
}
