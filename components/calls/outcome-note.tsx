import type { CallSummary } from "@/lib/calls/types";
import { describeOutcome } from "./call-wording";

const endings = new Set(["tool_error", "failed", "denied", "expired", "cancelled"]);

/** Whether the call ended without a clean result: the ones whose ending needs a sentence. */
export const hasNotableEnding = (call: Pick<CallSummary, "outcome">) => endings.has(call.outcome);

/**
 * Why a call ended as it did, in words (call-wording.ts), with the raw code small and muted beside it.
 * Red for what went wrong, grey for what simply never ran (expired, withdrawn).
 */
export function OutcomeNote({ call }: { call: Pick<CallSummary, "outcome" | "error" | "approval"> }) {
  const { headline, detail, code } = describeOutcome(call);
  const isQuiet = call.outcome === "expired" || call.outcome === "cancelled";
  return (
    <div
      role={isQuiet ? "status" : "alert"}
      data-testid="call-outcome"
      className={`rounded-md border px-4 py-3 text-sm ${isQuiet ? "border-slate-200 bg-slate-50 text-slate-700" : "border-red-200 bg-red-50 text-red-800"}`}
    >
      <p className="font-medium">
        {headline}
        {code ? (
          <code
            className={`ml-2 font-mono text-xs font-normal ${isQuiet ? "text-slate-500" : "text-red-700"}`}
            title="The code, as the API reports it"
          >
            {code}
          </code>
        ) : null}
      </p>
      {detail ? <p className="mt-1 whitespace-pre-wrap wrap-anywhere">{detail}</p> : null}
    </div>
  );
}
