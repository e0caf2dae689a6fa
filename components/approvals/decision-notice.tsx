import type { Decision, DecisionResult } from "./decision-form";

export type Notice = { tone: "ok" | "conflict" | "error"; title: string; text: string };

const past = { approve: "Approved", deny: "Denied" } as const;

/** What came of a decision, in words: done, already decided by someone else (409), or failed. */
export function describeDecision(tool: string, decision: Decision, result: DecisionResult): Notice {
  if (result.ok) {
    const then = decision === "approve" ? "It runs now; the caller gets its result." : "It will not run.";
    const reason = result.data.approval?.reason;
    return {
      tone: "ok",
      title: `${past[decision]} ${tool}`,
      text: reason ? `${then} Reason given: ${reason}` : then,
    };
  }
  if (result.error.code === "conflict") {
    return {
      tone: "conflict",
      title: `Not ${past[decision].toLowerCase()}: already decided`,
      text: result.error.message,
    };
  }
  return { tone: "error", title: `Could not ${decision} ${tool}`, text: result.error.message };
}

const styles: Record<Notice["tone"], string> = {
  ok: "border-emerald-200 bg-emerald-50 text-emerald-900",
  conflict: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-200 bg-red-50 text-red-800",
};

export function DecisionNotice({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div
      data-testid="decision-notice"
      className={`mb-4 flex items-start justify-between gap-4 rounded-md border px-4 py-3 text-sm ${styles[notice.tone]}`}
    >
      <div>
        <p className="font-medium">{notice.title}</p>
        <p className="mt-0.5 wrap-anywhere">{notice.text}</p>
      </div>
      <button
        type="button"
        onClick={onDismiss}
        className="text-xs font-medium underline opacity-80 hover:opacity-100"
      >
        Dismiss
      </button>
    </div>
  );
}
