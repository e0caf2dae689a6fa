"use client";

import { useRef, useState } from "react";
import { approveCallAction, type DecisionOutcome, denyCallAction } from "@/app/(dashboard)/approvals/actions";
import type { Args, FormErrors } from "@/components/playground/schema-form/form-values";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import type { ActionResult } from "@/lib/actions/action-result";
import type { ApprovalDto } from "@/lib/approvals/types";
import { AllowRuleFields, useAllowRuleDraft } from "./allow-rule-fields";
import { ArgumentEditor } from "./argument-editor";
import { useShortcuts } from "./use-shortcuts";

export type Decision = "approve" | "deny";

const thumbClass = "max-md:min-h-11 max-md:flex-1";
export type DecisionResult = ActionResult<DecisionOutcome>;

/**
 * Approve or deny the selected call, with an optional reason. Mounted for one approval at a time
 * (keyed by its id), so the reason never carries over to the next call. `a`, `d` and `r` act on it.
 * A single tool call can be approved with edited arguments instead (argument-editor.tsx).
 */
export function DecisionForm({
  approval,
  onDecided,
}: {
  approval: ApprovalDto;
  onDecided: (approval: ApprovalDto, decision: Decision, result: DecisionResult) => void;
}) {
  const [reason, setReason] = useState("");
  const [deciding, setDeciding] = useState<Decision | null>(null);
  // Once decided, a stray second key press must not send another decision (it would be a 409).
  const [isDone, setDone] = useState(false);
  const [isEditing, setEditing] = useState(false);
  const [argErrors, setArgErrors] = useState<FormErrors | undefined>();
  // Edits are one call's: an item standing for several identical requests is decided as asked.
  const canEdit = approval.call.kind === "tool_call" && approval.count === 1;
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const reasonId = `reason-${approval.id}`;
  const draft = useAllowRuleDraft(approval.call.arguments);
  // Rules are for principals' tool calls: operators are not held by grants, reads need no rule.
  const canMakeRule = approval.call.requester.kind === "principal" && approval.call.kind === "tool_call";
  const allowRule = canMakeRule ? draft.toInput() : undefined;

  const decide = async (decision: Decision, args?: Args) => {
    if (deciding || isDone) return;
    setDeciding(decision);
    let result: DecisionResult;
    try {
      result =
        decision === "approve"
          ? await approveCallAction(approval.id, reason, { arguments: args, allowRule })
          : await denyCallAction(approval.id, reason);
    } catch {
      result = {
        ok: false,
        error: { code: "internal", message: "The request failed; check your connection." },
      };
    }
    setDeciding(null);
    if (result.ok) setDone(true);
    if (args && !result.ok) setArgErrors(toFormErrors(result.error.fieldErrors, result.error.message));
    onDecided(approval, decision, result);
  };

  useShortcuts({
    a: () => (isEditing ? undefined : void decide("approve")),
    d: () => void decide("deny"),
    r: () => reasonRef.current?.focus(),
  });

  return (
    <div className="space-y-3">
      <form
        className="space-y-3"
        aria-label="Decision"
        onSubmit={(event) => {
          event.preventDefault();
          void decide("approve");
        }}
      >
        <div>
          <label htmlFor={reasonId} className="block text-sm font-medium text-slate-800">
            Reason <span className="font-normal text-slate-500">(optional, shown to the caller)</span>
          </label>
          <textarea
            ref={reasonRef}
            id={reasonId}
            rows={2}
            maxLength={2000}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            onKeyDown={(event) => {
              // Esc hands the keys back to the shortcuts.
              if (event.key === "Escape") event.currentTarget.blur();
            }}
            placeholder="Why you approve or deny it"
            className={`${inputClass} mt-1`}
          />
        </div>
        {canMakeRule ? (
          <AllowRuleFields id={`rule-${approval.id}`} draft={draft} tool={approval.call.tool} />
        ) : null}
        {/* On a phone: thumb-sized buttons (44 px) across the width, no key hints. */}
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            className={thumbClass}
            disabled={deciding !== null || isDone}
            aria-busy={deciding === "approve" || undefined}
          >
            {deciding === "approve" ? "Approving…" : allowRule ? "Approve and allow" : "Approve"}
            <kbd aria-hidden className="hidden rounded bg-indigo-500 px-1 font-mono text-[11px] md:inline">
              a
            </kbd>
          </Button>
          <Button
            variant="danger"
            className={thumbClass}
            disabled={deciding !== null || isDone}
            aria-busy={deciding === "deny" || undefined}
            onClick={() => void decide("deny")}
          >
            {deciding === "deny" ? "Denying…" : "Deny"}
            <kbd aria-hidden className="hidden rounded bg-red-500 px-1 font-mono text-[11px] md:inline">
              d
            </kbd>
          </Button>
          {canEdit ? (
            <Button
              variant="ghost"
              className="max-md:min-h-11"
              aria-expanded={isEditing}
              disabled={deciding !== null || isDone}
              onClick={() => setEditing((open) => !open)}
            >
              {isEditing ? "Cancel editing" : "Edit arguments…"}
            </Button>
          ) : null}
        </div>
      </form>
      {isEditing && canEdit ? (
        <ArgumentEditor
          approval={approval}
          isApproving={deciding === "approve"}
          serverErrors={argErrors}
          onApprove={(args) => void decide("approve", args)}
        />
      ) : null}
      {approval.call.kind === "tool_call" && approval.count > 1 ? (
        <p className="text-xs text-slate-500">
          Arguments can be edited for a single call only; this item stands for {approval.count} requests.
        </p>
      ) : null}
    </div>
  );
}

/** The server's field errors as the form shows them: "_" (the whole set) above the form. */
function toFormErrors(fieldErrors: Record<string, string[]> | undefined, message: string): FormErrors {
  const errors: FormErrors = {};
  for (const [field, messages] of Object.entries(fieldErrors ?? {}))
    errors[field === "_" || field === "arguments" ? "" : field] = messages.join(" ");
  if (Object.keys(errors).length === 0) errors[""] = message;
  return errors;
}
