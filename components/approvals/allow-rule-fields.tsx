"use client";

import { useState } from "react";
import { inputClass } from "@/components/ui/field";

/**
 * "Approve and allow for…": the approver may also let the same principal call the same tool
 * without waiting for a while (lib/approvals/allow-rules.ts), optionally only while chosen
 * arguments equal — or match a pattern like — what this call sent. Prefilled from the call's
 * arguments as stored (scrubbed), which is what rules compare against.
 */

const terms = [
  { value: "none", label: "Just this call" },
  { value: "15", label: "15 minutes" },
  { value: "60", label: "1 hour" },
  { value: "1440", label: "1 day" },
  { value: "until", label: "Until…" },
] as const;
type Term = (typeof terms)[number]["value"];

type ConditionDraft = { field: string; isOn: boolean; op: "equals" | "matches"; value: string };

export type AllowRuleDraft = ReturnType<typeof useAllowRuleDraft>;

// The shared input style is full width; these sit in a sentence.
const inlineInputClass = inputClass.replace("w-full", "w-auto");

const textOf = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function useAllowRuleDraft(args: Record<string, unknown>) {
  const [term, setTerm] = useState<Term>("none");
  const [until, setUntil] = useState("");
  const [conditions, setConditions] = useState<ConditionDraft[]>(() =>
    Object.entries(args)
      .slice(0, 10)
      .map(([field, value]) => ({ field, isOn: false, op: "equals", value: textOf(value) ?? "" })),
  );
  /** The `allowRule` of the approval, or undefined for just this call. */
  const toInput = () => {
    if (term === "none") return undefined;
    const chosen = conditions.filter((c) => c.isOn).map(({ field, op, value }) => ({ field, op, value }));
    return term === "until"
      ? { until: until ? new Date(until).toISOString() : "", conditions: chosen }
      : { durationMinutes: Number(term), conditions: chosen };
  };
  return { term, setTerm, until, setUntil, conditions, setConditions, toInput };
}

export function AllowRuleFields({ id, draft, tool }: { id: string; draft: AllowRuleDraft; tool: string }) {
  const { term, setTerm, until, setUntil, conditions, setConditions } = draft;
  const update = (index: number, change: Partial<ConditionDraft>) =>
    setConditions(conditions.map((c, i) => (i === index ? { ...c, ...change } : c)));
  return (
    <fieldset className="rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-800">Allow later calls</legend>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label htmlFor={`${id}-term`} className="text-slate-600">
          Let this agent call <code className="font-mono text-xs">{tool}</code> without approval for
        </label>
        <select
          id={`${id}-term`}
          value={term}
          onChange={(event) => setTerm(event.target.value as Term)}
          className={inlineInputClass}
        >
          {terms.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
        {term === "until" ? (
          <input
            type="datetime-local"
            aria-label="Allow until"
            value={until}
            onChange={(event) => setUntil(event.target.value)}
            className={inlineInputClass}
          />
        ) : null}
      </div>
      {term !== "none" && conditions.length > 0 ? (
        <div className="mt-3 space-y-2">
          <p className="text-xs text-slate-500">
            Only when (leave all unticked for any arguments; patterns must match the whole value):
          </p>
          {conditions.map((condition, index) => (
            <div key={condition.field} className="flex flex-wrap items-center gap-2 text-sm">
              <label className="flex items-center gap-1.5 font-mono text-xs">
                <input
                  type="checkbox"
                  checked={condition.isOn}
                  onChange={(event) => update(index, { isOn: event.target.checked })}
                />
                {condition.field}
              </label>
              <select
                aria-label={`How ${condition.field} is compared`}
                value={condition.op}
                disabled={!condition.isOn}
                onChange={(event) => update(index, { op: event.target.value as ConditionDraft["op"] })}
                className={inlineInputClass}
              >
                <option value="equals">equals</option>
                <option value="matches">matches pattern</option>
              </select>
              <input
                aria-label={`Value of ${condition.field}`}
                value={condition.value}
                disabled={!condition.isOn}
                maxLength={2000}
                onChange={(event) => update(index, { value: event.target.value })}
                className={`${inlineInputClass} min-w-40 flex-1 font-mono text-xs`}
              />
            </div>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}
