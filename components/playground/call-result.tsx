import Link from "next/link";
import { hasNotableEnding, OutcomeNote } from "@/components/calls/outcome-note";
import { formatLatency } from "@/components/ui/format";
import type { CallDto } from "./call-queries";
import { CallStatusBadge } from "./call-status";
import { ContentBlocks } from "./content-blocks";
import { StructuredContent } from "./structured-content";

/** A finished call: how it ended, how long it took, and what the tool returned. */
export function CallResult({ call }: { call: CallDto }) {
  const result = call.result;
  const content = Array.isArray(result?.content) ? result.content : [];
  // A denial is worded by the outcome note; an approval is said here.
  const approval = call.approval?.status === "approved" && call.approval.decidedBy ? call.approval : null;
  const isBad = call.outcome === "tool_error" || call.outcome === "failed" || call.outcome === "denied";

  return (
    <section
      aria-labelledby="call-result-title"
      data-testid="call-result"
      className={`rounded-lg border bg-white p-5 shadow-sm ${isBad ? "border-red-300" : "border-slate-200"}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="call-result-title" className="text-sm font-semibold text-slate-900">
          Result
        </h2>
        <CallStatusBadge call={call} />
        <span className="text-xs text-slate-500" data-testid="call-duration">
          {call.durationMs === null ? "did not run" : `took ${formatLatency(call.durationMs)}`}
        </span>
        <Link
          href={`/calls/${encodeURIComponent(call.id)}`}
          className="ml-auto text-xs text-indigo-700 hover:underline"
        >
          call <span className="font-mono">{call.id.slice(0, 8)}</span> →
        </Link>
      </div>
      {approval ? (
        <p className="mt-2 text-xs text-slate-600">
          Approved by {approval.decidedBy?.name}
          {approval.reason ? `: “${approval.reason}”` : ""}
        </p>
      ) : null}
      {hasNotableEnding(call) ? (
        <div className="mt-3">
          <OutcomeNote call={call} />
        </div>
      ) : null}
      {result?.truncated ? (
        <p className="mt-3 text-xs text-amber-800">
          The result was {Math.round(result.truncated.originalBytes / 1024)} KiB, over the{" "}
          {Math.round(result.truncated.limitBytes / 1024)} KiB limit: it was cut.
        </p>
      ) : null}
      {result ? (
        <div className="mt-3">
          <ContentBlocks content={content} />
        </div>
      ) : null}
      {result?.structuredContent !== undefined ? (
        <div className="mt-4">
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
            Structured content
          </h3>
          <StructuredContent value={result.structuredContent} />
        </div>
      ) : null}
    </section>
  );
}
