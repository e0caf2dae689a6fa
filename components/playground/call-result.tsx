import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { formatLatency } from "@/components/ui/format";
import type { CallDto } from "./call-queries";
import { CallStatusBadge } from "./call-status";
import { ContentBlocks } from "./content-blocks";
import { StructuredContent } from "./structured-content";

/** A finished call: how it ended, how long it took, and what the tool returned. */
export function CallResult({ call }: { call: CallDto }) {
  const result = call.result;
  const content = Array.isArray(result?.content) ? result.content : [];
  const decision = call.approval?.decidedBy ? call.approval : null;

  return (
    <section
      aria-labelledby="call-result-title"
      data-testid="call-result"
      className={`rounded-lg border bg-white p-5 shadow-sm ${call.isError ? "border-red-300" : "border-slate-200"}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="call-result-title" className="text-sm font-semibold text-slate-900">
          Result
        </h2>
        <CallStatusBadge status={call.status} />
        {call.isError ? <Badge tone="red">isError — the tool reported an error</Badge> : null}
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
      {decision ? (
        <p className="mt-2 text-xs text-slate-600">
          {decision.status === "approved" ? "Approved" : decision.status === "denied" ? "Denied" : "Decided"}{" "}
          by {decision.decidedBy?.name}
          {decision.reason ? `: “${decision.reason}”` : ""}
        </p>
      ) : null}
      {call.error ? (
        <div className="mt-3">
          <Alert title={errorTitles[call.error.code] ?? call.error.code}>{call.error.message}</Alert>
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

const errorTitles: Record<string, string> = {
  policy_denied: "Denied by policy",
  approval_expired: "Nobody decided in time",
  not_started: "Approved, but not started in time",
  cancelled: "Cancelled",
  timeout: "The tool did not answer in time",
  upstream_unavailable: "The server is not reachable",
  upstream_error: "The server returned an error",
  internal: "Switchboard failed",
};
