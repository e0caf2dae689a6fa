import type { CallSummary } from "@/lib/calls/types";

/**
 * How a call ended, in words: the one place that turns an outcome and its error code into a sentence
 * (the call page, the Playground, the Calls list and the Overview all show it). The raw code stays
 * alongside, for operators who grep for it, but is never the headline.
 */

export type OutcomeWording = {
  /** one short sentence: "Denied by Dana: not on a Friday" */
  headline: string;
  /** what the stored message adds, when it says more than the headline; null when it does not */
  detail: string | null;
  /** the raw code (`policy_denied`, `timeout`, `isError`…), shown small and muted */
  code: string | null;
};

type Call = Pick<CallSummary, "outcome" | "error" | "approval">;

const failures: Record<string, string> = {
  timeout: "The tool did not answer in time",
  upstream_unavailable: "The server could not be reached",
  upstream_error: "The server returned an error",
  not_started: "Approved, but no process started it in time",
  policy_denied: "Refused by policy before it ran",
  cancelled: "Cancelled while it ran",
  internal: "Switchboard failed while running it",
};

// The grant check's refusal reads "The principal "x" has no grant for y." (lib/calls/call-decision.ts).
const NO_GRANT = /has no grant for/;

export function describeOutcome(call: Call): OutcomeWording {
  const code = call.error?.code ?? null;
  const message = call.error?.message?.trim() || null;
  switch (call.outcome) {
    case "pending_approval":
      return {
        headline: "Waiting for a person to approve it",
        detail: call.approval?.requiredBecause ?? null,
        code,
      };
    case "approved":
      return { headline: "Approved; about to run", detail: null, code };
    case "running":
      return { headline: "Running on the server", detail: null, code };
    case "succeeded":
      return { headline: "The tool ran and reported no error", detail: null, code };
    case "tool_error":
      return {
        headline: "The tool ran but reported an error",
        detail: "It answered with isError: true; what it said is in the result.",
        code: "isError",
      };
    case "failed":
      return { headline: (code && failures[code]) ?? "It did not produce a result", detail: message, code };
    case "denied":
      return describeDenial(call, code, message);
    case "expired":
      return {
        headline: "No one decided in time",
        detail: "The approval expired; the call never ran.",
        code,
      };
    case "cancelled":
      return { headline: "Withdrawn by the caller before it ran", detail: null, code };
    case "rate_limited":
      // The message names the limit and when to try again (lib/limits/call-limits.ts).
      return { headline: "Refused at once: over a limit", detail: message, code };
    default:
      return { headline: call.outcome, detail: message, code };
  }
}

function describeDenial(call: Call, code: string | null, message: string | null): OutcomeWording {
  const approval = call.approval;
  if (approval?.status === "denied" && approval.decidedBy) {
    const reason = approval.reason?.trim();
    return {
      headline: `Denied by ${approval.decidedBy.name}${reason ? `: ${reason}` : ""}`,
      detail: reason ? null : "No reason given.",
      code,
    };
  }
  if (message && NO_GRANT.test(message))
    return { headline: "No grant covers this tool", detail: message, code };
  return { headline: "Refused by policy; it never ran", detail: message, code };
}
