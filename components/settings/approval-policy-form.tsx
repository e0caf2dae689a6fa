"use client";

import { type FormEvent, useState } from "react";
import { updateApprovalPolicyAction } from "@/app/(dashboard)/settings/actions";
import { effectLabels, effectOrder, UNCLASSIFIED_AS } from "@/components/tools/effects";
import { Alert } from "@/components/ui/alert";
import { Field, TextInput } from "@/components/ui/field";
import type { ApprovalPolicy } from "@/lib/policy/types";
import { PolicyFormFooter, usePolicySave } from "./policy-form";

/** "600" → "10 minutes": the expiry as a person reads it. */
function spelledOut(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 1) return "";
  const units: Array<[number, string]> = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  const [size, unit] = units.find(([size]) => seconds % size === 0) ?? [1, "second"];
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/**
 * The workspace's approval rules: which effects wait for a person, whether operators may approve
 * their own calls, how long a call waits. Per-tool overrides stay on the Tools page. Read-only for
 * non-admins.
 */
export function ApprovalPolicyForm({ policy, canManage }: { policy: ApprovalPolicy; canManage: boolean }) {
  const { errors, setErrors, message, isPending, save } = usePolicySave({
    saved: "Saved. Calls from now on follow these rules.",
    marked: "Nothing was saved: correct the field marked below.",
  });
  const [expiry, setExpiry] = useState(String(policy.expirySeconds));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      requireApprovalFor: form.getAll("requireApprovalFor").map(String),
      forbidSelfApproval: form.get("forbidSelfApproval") === "on",
      // Sent as typed: a blank or a fraction is the server's to refuse, beside the field.
      expirySeconds: expiry.trim() === "" ? null : Number(expiry),
    };
    // Every field of this form shows its own errors.
    save(
      () => updateApprovalPolicyAction(input),
      () => true,
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <p className="text-sm text-slate-600">
        Which calls wait for a person before they run. A tool&apos;s own rule on the Tools page (always or
        never) takes precedence; a tool nobody has classified counts as {UNCLASSIFIED_AS}.
      </p>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <fieldset disabled={!canManage || isPending} className="space-y-6">
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Calls that need approval, by effect</legend>
          <div className="mt-2 space-y-2">
            {effectOrder.map((effect) => (
              <label key={effect} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="requireApprovalFor"
                  value={effect}
                  defaultChecked={policy.requireApprovalFor.includes(effect)}
                />
                {effectLabels[effect]}
              </label>
            ))}
          </div>
          {errors.requireApprovalFor ? (
            <p className="mt-1 text-xs text-red-700">{errors.requireApprovalFor.join(" ")}</p>
          ) : null}
        </fieldset>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name="forbidSelfApproval"
            defaultChecked={policy.forbidSelfApproval}
            className="mt-0.5"
          />
          <span>
            No self-approval
            <span className="block text-xs text-slate-500">
              Nobody approves a call they requested — in the dashboard or with an API key they created — nor a
              call of a principal whose key they created; they can still deny it. On in new workspaces.
            </span>
          </span>
        </label>
        <div className="w-72">
          <Field
            id="expirySeconds"
            label="A waiting call expires after (seconds)"
            errors={errors.expirySeconds}
            hint={spelledOut(Number(expiry)) || "From 1 second to 7 days (604800)."}
          >
            <TextInput
              id="expirySeconds"
              name="expirySeconds"
              inputMode="numeric"
              value={expiry}
              onChange={(event) => {
                setExpiry(event.target.value);
                // Its error was about the value replaced: the hint reads the new one.
                setErrors(({ expirySeconds: _replaced, ...rest }) => rest);
              }}
              invalid={!!errors.expirySeconds}
            />
          </Field>
        </div>
      </fieldset>
      <PolicyFormFooter
        canManage={canManage}
        isPending={isPending}
        label="Save rules"
        readOnlyNote="Only an admin of this workspace can change these rules."
      />
    </form>
  );
}
