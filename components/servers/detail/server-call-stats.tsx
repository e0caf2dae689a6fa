"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { callStatsQuery } from "@/components/calls/call-stats-queries";
import { errorTone, formatPerMinute, formatShare } from "@/components/calls/stats-format";
import { formatLatency } from "@/components/ui/format";

/** The server's own calls over the last hour: rate, error rate and run time, as on the Overview. */
export function ServerCallStats({ name }: { name: string }) {
  const { data, error } = useQuery(callStatsQuery(name));
  const rates = data?.totals;
  return (
    <section
      aria-label="Calls in the last hour"
      data-testid="server-call-stats"
      className="mb-4 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm"
    >
      <div className="mb-2 flex items-baseline justify-between gap-3">
        <h2 className="text-sm font-semibold text-slate-900">Calls · last hour</h2>
        <Link
          href={`/calls?server=${encodeURIComponent(name)}`}
          className="text-xs text-indigo-700 hover:underline"
        >
          This server's calls →
        </Link>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          Could not load the call statistics: {error.message}
        </p>
      ) : !rates ? (
        <p role="status" className="text-sm text-slate-500">
          Loading call statistics…
        </p>
      ) : rates.calls === 0 ? (
        <p className="text-sm text-slate-500">No calls in the last hour.</p>
      ) : (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          <Stat label="Calls" value={String(rates.calls)} />
          <Stat label="Calls / min" value={formatPerMinute(rates.callsPerMinute)} />
          <Stat
            label="Error rate"
            value={formatShare(rates.errorRate)}
            tone={errorTone(rates.errorRate)}
            title={`${rates.errors} of ${rates.calls} failed or answered with a tool error`}
          />
          <Stat label="p50 run time" value={formatLatency(rates.p50Ms)} />
          <Stat label="p95 run time" value={formatLatency(rates.p95Ms)} />
        </dl>
      )}
    </section>
  );
}

function Stat({
  label,
  value,
  tone,
  title,
}: {
  label: string;
  value: string;
  tone?: string;
  title?: string;
}) {
  return (
    <div title={title}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${tone ?? "text-slate-900"}`}>{value}</dd>
    </div>
  );
}
