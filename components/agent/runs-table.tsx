import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { Time } from "@/components/ui/time";
import type { AgentRunDto } from "./agent-queries";
import { RunStatusBadge } from "./run-status-badge";

/** The latest runs, newest first; each prompt links to its run's page. */
export function RunsTable({ runs }: { runs: AgentRunDto[] }) {
  return (
    <DataTable
      caption="Agent runs"
      columns={[
        { label: "Prompt", className: "w-[26%]" },
        { label: "Status", className: "w-[13%]" },
        { label: "Principal", className: "w-[13%]" },
        { label: "Model", className: "w-[12%]" },
        { label: "Started", className: "w-[13%]" },
        { label: "Rounds / tool calls", className: "w-[10%]" },
        { label: "Stop reason", className: "w-[13%]" },
      ]}
      fixed
      stackOnPhone
    >
      {runs.map((run) => (
        <tr key={run.id} data-testid={`run-row-${run.id}`} className="hover:bg-slate-50/60">
          <td className="px-4 py-3 align-top">
            <Link
              href={`/agent/runs/${run.id}`}
              title={run.prompt}
              className="line-clamp-2 wrap-anywhere font-medium text-slate-900 hover:text-indigo-700 hover:underline"
            >
              {run.prompt}
            </Link>
          </td>
          <td className="px-4 py-3 align-top">
            <RunStatusBadge status={run.status} />
          </td>
          <td className="truncate px-4 py-3 align-top text-slate-800" title={run.principal.name}>
            {run.principal.name}
          </td>
          <td className="truncate px-4 py-3 align-top text-slate-700" title={run.model}>
            {run.model}
          </td>
          <td className="whitespace-nowrap px-4 py-3 align-top text-slate-600">
            <Time iso={run.createdAt} />
          </td>
          <td className="whitespace-nowrap px-4 py-3 align-top font-mono text-xs text-slate-700">
            <span className="sr-only md:hidden">Rounds and tool calls: </span>
            {run.rounds} / {run.toolCalls}
          </td>
          <td className="px-4 py-3 align-top text-xs text-slate-600">
            <span className="line-clamp-2 wrap-anywhere" title={run.stopReason ?? undefined}>
              {run.stopReason ?? "—"}
            </span>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
