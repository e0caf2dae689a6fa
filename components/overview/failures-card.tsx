import Link from "next/link";
import { RelativeTime } from "@/components/calls/relative-time";
import type { CallSummary } from "@/lib/calls/types";
import { Card } from "./card";

export function FailuresCard({ calls, now }: { calls: CallSummary[]; now: number }) {
  return (
    <Card
      title="Recent failures"
      testId="overview-failures"
      aside={
        <Link href="/calls?status=failed" className="text-indigo-700 hover:underline">
          All failed calls →
        </Link>
      }
    >
      {calls.length === 0 ? (
        <p className="text-sm text-slate-500">No call has failed.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {calls.map((call) => (
            <li key={call.id} className="py-2 text-sm">
              <div className="flex items-baseline justify-between gap-2">
                <Link
                  href={`/calls/${call.id}`}
                  className="break-all font-mono text-xs font-medium text-slate-900 hover:text-indigo-700 hover:underline"
                >
                  {call.tool}
                </Link>
                <RelativeTime iso={call.createdAt} now={now} className="shrink-0 text-xs text-slate-500" />
              </div>
              {call.error ? (
                <p
                  className="mt-0.5 line-clamp-2 wrap-anywhere text-xs text-red-700"
                  title={call.error.message}
                >
                  <code className="font-mono">{call.error.code}</code>
                  {call.error.message ? ` · ${call.error.message}` : ""}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
