"use client";

import { useQuery } from "@tanstack/react-query";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import { isCallFinished } from "../call-format";
import { callKeys, callQuery } from "../call-queries";
import { JsonView } from "../json-view";
import { useLiveInvalidation } from "../use-live-invalidation";
import { useNow } from "../use-now";
import { ArgumentEditTable } from "./argument-edit-table";
import { CallHeader } from "./call-header";
import { CallResult } from "./call-result";
import { CallTimeline } from "./call-timeline";
import { toTimelineSteps } from "./timeline-steps";

/** /calls/[id]: one call's timeline, arguments and result, following its events as they happen. */
export function CallDetail({ id }: { id: string }) {
  const { data, error } = useQuery(callQuery(id));
  const status = useLiveInvalidation({ call: id }, () => [callKeys.detail(id)], [callKeys.detail(id)]);
  const now = useNow(1000);
  if (!data) return <QueryFallback error={error} what="the call" />;
  const { call, timeline } = data;
  const steps = toTimelineSteps(call, timeline, now);
  const totalMs = call.finishedAt ? Date.parse(call.finishedAt) - Date.parse(call.createdAt) : null;

  return (
    <>
      <CallHeader call={call} />
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
