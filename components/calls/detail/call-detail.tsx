"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import type { DecisionRights } from "@/lib/approvals/types";
import { isCallFinished } from "../call-format";
import { callKeys, callQuery } from "../call-queries";
import { DecideCall } from "../decide-call";
import { JsonView } from "../json-view";
import { useLiveInvalidation } from "../use-live-invalidation";
import { useNow } from "../use-now";
import { ArgumentEditTable } from "./argument-edit-table";
import { CallHeader } from "./call-header";
import { CallResult } from "./call-result";
import { CallTimeline } from "./call-timeline";
import { toTimelineSteps } from "./timeline-steps";

/** /calls/[id]: one call's timeline, arguments and result, following its events as they happen. */
export function CallDetail({ id, rights }: { id: string; rights: DecisionRights }) {
  const { data, error } = useQuery(callQuery(id));
  const queryClient = useQueryClient();
  const status = useLiveInvalidation({ call: id }, () => [callKeys.detail(id)], [callKeys.detail(id)]);
  const now = useNow(1000);
  if (!data) return <QueryFallback error={error} what="the call" />;
  const { call, timeline } = data;
  const steps = toTimelineSteps(call, timeline, now);
  const totalMs = call.finishedAt ? Date.parse(call.finishedAt) - Date.parse(call.createdAt) : null;

  return (
    <>
      <CallHeader call={call} />
      {call.approval?.status === "pending" ? (
        <section
          aria-labelledby="decide-title"
          className="mb-6 rounded-lg border border-amber-200 bg-amber-50/60 p-4"
        >
          <h2 id="decide-title" className="mb-1 text-sm font-semibold text-slate-900">
            Waiting for a decision
          </h2>
          {call.approval.requiredBecause ? (
            <p className="mb-3 text-sm text-slate-700">{call.approval.requiredBecause}</p>
          ) : null}
          <DecideCall
            call={call}
            rights={rights}
            // The event stream refreshes it too; this makes the outcome show without waiting for it.
            onDecided={() => void queryClient.invalidateQueries({ queryKey: callKeys.detail(id) })}
          />
        </section>
      ) : null}
      {error ? (
        <p role="status" className="mb-4 text-xs text-amber-800">
          Could not refresh: {error.message} Showing the last data received.
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-labelledby="timeline-title">
          <SectionTitle aside={isCallFinished(call.status) ? null : <ConnectionBadge status={status} />}>
            <span id="timeline-title">Timeline</span>
          </SectionTitle>
          <CallTimeline steps={steps} totalMs={totalMs} />
        </section>
        <div className="min-w-0">
          <section aria-labelledby="arguments-title">
            <SectionTitle aside="secret values arrive already redacted">
              <span id="arguments-title">{call.argumentEdit ? "Arguments, as approved" : "Arguments"}</span>
            </SectionTitle>
            {call.argumentEdit ? (
              <div className="mb-3">
                <ArgumentEditTable edit={call.argumentEdit} ran={call.arguments} />
              </div>
            ) : null}
            <JsonView value={call.arguments} label="Arguments" emptyText="Called without arguments." />
          </section>
          <section aria-labelledby="result-title" className="mt-6">
            <SectionTitle>
              <span id="result-title">Result</span>
            </SectionTitle>
            <CallResult call={call} />
          </section>
        </div>
      </div>
    </>
  );
}
