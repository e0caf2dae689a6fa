import Link from "next/link";
import { CallOutcomeBadge } from "@/components/calls/call-status-badge";
import { describeOutcome } from "@/components/calls/call-wording";
import { RelativeTime } from "@/components/calls/relative-time";
import type { CallSummary } from "@/lib/calls/types";
import { Card } from "./card";

/** Calls that failed and tools that answered with an error, newest first. */
export function FailuresCard({ calls, now }: { calls: CallSummary[]; now: number }) {
  return (
    <Card
      title="Recent failures"
      testId="overview-failures"
      aside={
        <span className="flex gap-3">
          <Link href="/calls?status=failed" className="text-indigo-700 hover:underline">
            Failed →
          </Link>
          <Link href="/calls?status=tool_error" className="text-indigo-700 hover:underline">
            Tool errors →
          </Link>
        </span>
      }
    >
      {calls.length === 0 ? (
        <p className="text-sm text-slate-500">No call has failed, and no tool has reported an error.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {calls.map((call) => (
            <FailureItem key={call.id} call={call} now={now} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function FailureItem({ call, now }: { call: CallSummary; now: number }) {
  const { headline, detail, code } = describeOutcome(call);
  return (
    <li className="py-2 text-sm" data-testid={`failure-${call.id}`}>
      <div className="flex items-baseline justify-between gap-2">
        <Link
          href={`/calls/${call.id}`}
          className="break-all font-mono text-xs font-medium text-slate-900 hover:text-indigo-700 hover:underline"
        >
          {call.tool}
        </Link>
        <RelativeTime iso={call.createdAt} now={now} className="shrink-0 text-xs text-slate-500" />
      </div>
      <div className="mt-0.5 flex items-baseline gap-2">
        <CallOutcomeBadge outcome={call.outcome} />
        <p className="line-clamp-2 min-w-0 wrap-anywhere text-xs text-red-700" title={detail ?? undefined}>
          {headline}
          {detail && call.outcome === "failed" ? ` · ${detail}` : ""}
          {/* The raw code, muted, for operators who grep for it. */}
          {code ? <code className="ml-1.5 font-mono text-slate-500">{code}</code> : null}
        </p>
      </div>
    </li>
  );
}
