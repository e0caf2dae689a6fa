import Link from "next/link";
import type { AgentCallStats } from "@/lib/calls/types";
import { Card } from "./card";

/** The principals that called most in the last hour, with a bar for their share of the busiest. */
export function BusiestAgentsCard({ agents }: { agents: AgentCallStats[] }) {
  const busiest = Math.max(1, ...agents.map((a) => a.calls));
  return (
    <Card title="Busiest agents · last hour" testId="overview-busiest-agents">
      {agents.length === 0 ? (
        <p className="text-sm text-slate-500">No agent has made a call in the last hour.</p>
      ) : (
        <ol className="space-y-2">
          {agents.map((agent) => (
            <li
              key={agent.principalId}
              className="text-sm"
              data-testid={`busy-agent-${agent.principalName ?? agent.principalId}`}
            >
              <div className="flex items-baseline justify-between gap-2">
                <Link
                  href={`/calls?requester=${encodeURIComponent(agent.principalId)}`}
                  className="truncate font-medium text-slate-900 hover:text-indigo-700 hover:underline"
                >
                  {agent.principalName ?? "deleted principal"}
                </Link>
                <span className="shrink-0 text-xs tabular-nums text-slate-600">
                  {agent.calls} {agent.calls === 1 ? "call" : "calls"}
                  {agent.errors > 0 ? (
                    <span className="ml-1.5 text-red-700">
                      · {agent.errors} {agent.errors === 1 ? "error" : "errors"}
                    </span>
                  ) : null}
                </span>
              </div>
              <div aria-hidden className="mt-1 h-1.5 overflow-hidden rounded-sm bg-slate-100">
                <div
                  className="h-full bg-indigo-400"
                  style={{ width: `${(agent.calls / busiest) * 100}%` }}
                />
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
