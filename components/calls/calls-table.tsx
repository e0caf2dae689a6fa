import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { EffectBadge } from "@/components/ui/tool-badges";
import type { CallSummary } from "@/lib/calls/types";
import { formatDuration, reachedTool } from "./call-format";
import { CallKindBadge, CallOutcomeBadge } from "./call-status-badge";
import { describeOutcome } from "./call-wording";
import { hasNotableEnding } from "./outcome-note";
import { RelativeTime } from "./relative-time";

export function CallsTable({ calls, now }: { calls: CallSummary[]; now: number }) {
  return (
    <DataTable
      columns={[
        { label: "Tool", className: "w-[24%]" },
        { label: "Status", className: "w-[20%]" },
        { label: "Requester", className: "w-[15%]" },
        { label: "Effect", className: "w-[18%]" },
        { label: "When", className: "w-[11%]" },
        { label: "Duration", className: "w-[12%]" },
      ]}
      fixed
      stackOnPhone
    >
      {calls.map((call) => (
        <tr key={call.id} data-testid={`call-row-${call.id}`} className="hover:bg-slate-50/60">
          <td className="px-4 py-3 align-top">
            <Link
              href={`/calls/${call.id}`}
              className="break-all font-mono text-xs font-medium text-slate-900 hover:text-indigo-700 hover:underline"
            >
              {call.tool}
            </Link>
            {reachedTool(call) ? (
              <div className="text-xs text-slate-500">{call.serverName ?? "(server removed)"}</div>
            ) : null}
            <div className="mt-1">
              <CallKindBadge kind={call.kind} />
            </div>
          </td>
          <td className="px-4 py-3 align-top">
            <div className="flex flex-wrap gap-1">
              <CallOutcomeBadge outcome={call.outcome} />
            </div>
            {hasNotableEnding(call) ? <EndingLine call={call} /> : null}
          </td>
          <td className="px-4 py-3 align-top">
            <div className="truncate text-slate-800" title={call.requester.name}>
              {call.requester.name}
            </div>
            <div className="text-xs text-slate-500">
              {call.requester.kind === "principal" ? "agent" : "operator"}
            </div>
          </td>
          <td className="px-4 py-3 align-top">
            {reachedTool(call) ? (
              <EffectBadge effect={call.effect} />
            ) : (
              <span className="text-slate-400">—</span>
            )}
          </td>
          <td className="whitespace-nowrap px-4 py-3 align-top text-slate-600">
            <RelativeTime iso={call.createdAt} now={now} />
          </td>
          <td className="whitespace-nowrap px-4 py-3 align-top font-mono text-xs text-slate-700">
            {formatDuration(call.durationMs)}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The ending in words, clamped; the full text and the raw code on hover. */
function EndingLine({ call }: { call: CallSummary }) {
  const { headline, detail, code } = describeOutcome(call);
  return (
    <p
      className={`mt-1 line-clamp-2 wrap-anywhere text-xs ${call.outcome === "expired" || call.outcome === "cancelled" ? "text-slate-500" : "text-red-700"}`}
      title={[headline, detail, code && `(${code})`].filter(Boolean).join(" ")}
    >
      {headline}
    </p>
  );
}
