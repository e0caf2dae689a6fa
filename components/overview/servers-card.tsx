import Link from "next/link";
import { ServerStatusBadge } from "@/components/servers/server-status-badge";
import type { ServerDto } from "@/lib/servers/types";
import { Card } from "./card";

const order = [
  "ready",
  "connecting",
  "needs-authorization",
  "degraded",
  "crash-loop",
  "disconnected",
  "disabled",
  "unknown",
];
// The states an operator should look at; connecting and disabled are on their way or by choice.
const unhealthy = new Set(["needs-authorization", "degraded", "crash-loop", "disconnected"]);

export function ServersCard({ servers }: { servers: ServerDto[] }) {
  const counts = new Map<string, number>();
  for (const server of servers) counts.set(server.status, (counts.get(server.status) ?? 0) + 1);
  const statuses = [...counts.keys()].sort((a, b) => rank(a) - rank(b));
  const failing = servers.filter((s) => unhealthy.has(s.status));

  return (
    <Card
      title={`Servers · ${servers.length}`}
      testId="overview-servers"
      aside={
        <Link href="/servers" className="text-indigo-700 hover:underline">
          All servers →
        </Link>
      }
    >
      {servers.length === 0 ? (
        <p className="text-sm text-slate-500">
          No servers registered yet.{" "}
          <Link href="/servers/new" className="text-indigo-700 hover:underline">
            Add one
          </Link>
          .
        </p>
      ) : (
        <>
          <ul className="flex flex-wrap gap-2" aria-label="Servers by status">
            {statuses.map((status) => (
              <li key={status} className="flex items-center gap-1.5 text-sm">
                <ServerStatusBadge status={status} />
                <span className="font-semibold tabular-nums text-slate-900">{counts.get(status)}</span>
              </li>
            ))}
          </ul>
          {failing.length === 0 ? (
            <p className="mt-3 text-sm text-emerald-700">No server needs attention.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100" aria-label="Servers that need attention">
              {failing.map((server) => (
                <li key={server.id} className="py-2 text-sm">
                  <div className="flex items-center justify-between gap-2">
                    <Link
                      href={`/servers/${server.name}`}
                      className="font-medium text-slate-900 hover:text-indigo-700"
                    >
                      {server.displayName ?? server.name}
                    </Link>
                    <ServerStatusBadge status={server.status} />
                  </div>
                  {server.lastError ? (
                    <p
                      className="mt-0.5 line-clamp-2 wrap-anywhere font-mono text-xs text-red-700"
                      title={server.lastError}
                    >
                      {server.lastError}
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}

function rank(status: string): number {
  const index = order.indexOf(status);
  return index === -1 ? order.length : index;
}
