"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { approveCallAction, denyCallAction } from "@/app/(dashboard)/approvals/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import type { ActionResult } from "@/lib/actions/action-result";
import type { DecisionRights } from "@/lib/approvals/types";
import type { CallSummary } from "@/lib/calls/types";

type Decision = "approve" | "deny";

/**
 * Approve or deny a held call where it is shown (the call page, the Playground), through the
 * Approvals page's own server actions: one decide path. It decides this call only, not requests like
 * it (the queue does that). Shown to approvers and admins; Approve says why not when "no
 * self-approval" forbids it (denying, i.e. withdrawing one's own call, stays possible).
 */
export function DecideCall({
  call,
  rights,
  onDecided,
}: {
  call: Pick<CallSummary, "id" | "approval">;
  rights: DecisionRights;
  onDecided?: (decision: Decision) => void;
}) {
  const [reason, setReason] = useState("");
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const [done, setDone] = useState<Decision | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const refusalId = useId();
  const approval = call.approval;
  if (approval?.status !== "pending") return null;

  if (!rights.canDecide)
    return (
      <p className="text-sm text-slate-600" data-testid="decide-call">
        Only approvers and admins decide held calls: ask one, or see it in{" "}
        <Link href="/approvals" className="text-indigo-700 underline">
          Approvals
        </Link>
        .
      </p>
    );

  const decide = async (decision: Decision) => {
    if (deciding || done) return;
    setDeciding(decision);
    setError(null);
    let result: ActionResult<unknown>;
    try {
      result =
        decision === "approve"
          ? await approveCallAction(approval.id, reason, { single: true })
          : await denyCallAction(approval.id, reason, { single: true });
    } catch {
      result = {
        ok: false,
        error: { code: "internal", message: "The request failed; check your connection." },
      };
    }
    setDeciding(null);
    if (!result.ok) return setError(result.error.message);
    setDone(decision);
    onDecided?.(decision);
  };

  return (
    <form
      aria-label="Decide this call"
      data-testid="decide-call"
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (!rights.approveRefusal) void decide("approve");
      }}
    >
      <div>
        <label htmlFor={reasonId} className="block text-sm font-medium text-slate-800">
          Reason <span className="font-normal text-slate-500">(optional, shown to the caller)</span>
        </label>
        <textarea
          id={reasonId}
          rows={2}
          maxLength={2000}
          value={reason}
          disabled={done !== null}
          onChange={(event) => setReason(event.target.value)}
          placeholder="Why you approve or deny it"
          className={`${inputClass} mt-1`}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="submit"
          disabled={deciding !== null || done !== null || rights.approveRefusal !== null}
          aria-busy={deciding === "approve" || undefined}
          aria-describedby={rights.approveRefusal ? refusalId : undefined}
        >
          {deciding === "approve" ? "Approving…" : "Approve"}
        </Button>
        <Button
          variant="danger"
          disabled={deciding !== null || done !== null}
          aria-busy={deciding === "deny" || undefined}
          onClick={() => void decide("deny")}
        >
          {deciding === "deny" ? "Denying…" : "Deny"}
        </Button>
        {done ? (
          <span role="status" className="text-sm text-slate-600">
            {done === "approve" ? "Approved; it runs now." : "Denied; it will not run."}
          </span>
        ) : null}
      </div>
      {rights.approveRefusal ? (
        <p id={refusalId} className="text-xs text-slate-600">
          {rights.approveRefusal}
        </p>
      ) : null}
      {error ? <Alert>{error}</Alert> : null}
    </form>
  );
}
