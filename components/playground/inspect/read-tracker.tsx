"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { formatLatency } from "@/components/ui/format";
import { type CallDto, callWaitQuery, isFinishedCall } from "../call-queries";
import { CallResult } from "../call-result";
import { CallStatusBadge } from "../call-status";
import { CallTracker } from "../call-tracker";

/**
 * A resource read or prompt get, followed like a tool call: while it waits (for an approval, or
 * running) the Playground's call tracker shows it — the same query, so both move together — and
 * once finished, a success is shown by `children` and anything else as a tool call's outcome is.
 */
export function ReadTracker({
  initial,
  children,
}: {
  initial: CallDto;
  children: (call: CallDto) => ReactNode;
}) {
  const { data } = useQuery({ ...callWaitQuery(initial.id), enabled: !isFinishedCall(initial) });
  const call = data ?? initial;
  if (!isFinishedCall(call)) return <CallTracker initial={initial} />;
  if (call.status !== "succeeded") return <CallResult call={call} />;
  return <>{children(call)}</>;
}

/** The top of a read's result: what it was, how it ended, and the call it is recorded as. */
export function RecordedCallHeader({ call, title }: { call: CallDto; title: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 id="read-result-title" className="text-sm font-semibold text-slate-900">
        {title}
      </h2>
      <CallStatusBadge call={call} />
      {call.durationMs === null ? null : (
        <span className="text-xs text-slate-500">took {formatLatency(call.durationMs)}</span>
      )}
      <Link
        href={`/calls/${encodeURIComponent(call.id)}`}
        className="ml-auto text-xs text-indigo-700 hover:underline"
      >
        Recorded as call <span className="font-mono">{call.id.slice(0, 8)}</span> →
      </Link>
    </div>
  );
}

/** Said when the stored result was cut to the size budget (lib/calls/result-bounds). */
export function TruncatedNotice({ call }: { call: CallDto }) {
  const truncated = call.result?.truncated;
  if (!truncated) return null;
  return (
    <p className="mt-3 text-xs text-amber-800">
      The result was {Math.round(truncated.originalBytes / 1024)} KiB, over the{" "}
      {Math.round(truncated.limitBytes / 1024)} KiB limit: it was cut.
    </p>
  );
}
