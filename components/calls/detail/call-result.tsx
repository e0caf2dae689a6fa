import { isRecord } from "@/components/ui/format";
import type { CallDto } from "@/lib/calls/types";
import { JsonView } from "../json-view";
import { ContentBlock } from "./content-block";

const noResult: Partial<Record<CallDto["status"], string>> = {
  pending_approval: "No result yet: the call is waiting for a decision.",
  approved: "No result yet: the call is about to run.",
  running: "No result yet: the call is running.",
  denied: "The call was denied, so it never ran.",
  expired: "The approval expired, so the call never ran.",
  cancelled: "The caller withdrew the call before it ran.",
  failed: "The call failed before the server returned a result.",
};

const kib = (bytes: number) => `${Math.round((bytes / 1024) * 10) / 10} KiB`;

/** The tool's answer, as stored: scrubbed of secrets and cut to size (with a marker when it was). */
export function CallResult({ call }: { call: CallDto }) {
  const result = call.result;
  if (!result) {
    return <p className="text-sm text-slate-500">{noResult[call.status] ?? "No result was stored."}</p>;
  }
  const content = Array.isArray(result.content) ? result.content : [];
  const structured = result.structuredContent;
  return (
    <div className="space-y-3" data-testid="call-result">
      {/* A tool error is said once, above the page (outcome-note.tsx); here its content is the message. */}
      {result.truncated ? (
        <div
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p className="font-medium">Truncated</p>
          <p className="mt-0.5">
            The result was {kib(result.truncated.originalBytes)}, over the {kib(result.truncated.limitBytes)}{" "}
            limit; what did not fit was cut and the last item says what.
          </p>
        </div>
      ) : null}
      {content.length === 0 && structured === undefined ? (
        <p className="text-sm text-slate-500">The tool returned no content.</p>
      ) : null}
      {content.map((block, index) => (
        // Items have no identity of their own; their order is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <ContentBlock key={index} block={block} />
      ))}
      {structured !== undefined ? (
        <div>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
            Structured content
          </h3>
          <JsonView
            value={isRecord(structured) || Array.isArray(structured) ? structured : { value: structured }}
            label="Structured content"
          />
        </div>
      ) : null}
    </div>
  );
}
