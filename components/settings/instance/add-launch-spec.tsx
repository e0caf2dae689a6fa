"use client";

import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClass, TextArea, TextInput } from "@/components/ui/field";
import { isExactSpec, type LaunchSpec } from "@/lib/policy/launch-spec-pattern";
import { SpecPattern } from "./spec-pattern";

/**
 * One argument per line, exactly as the program receives it (spaces inside a line are part of the
 * argument): what is typed is what is stored and matched. Blank lines separate nothing.
 */
export const parseArgs = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line.trim() !== "");

type Draft = { program: string; args: string; rest: boolean; audience: LaunchSpec["audience"]; why: string };
const emptyDraft: Draft = { program: "", args: "", rest: false, audience: "owners", why: "" };

/**
 * The part of the policy form that adds a launch spec. Not a form of its own (forms don't nest):
 * Enter in a one-line field adds the spec rather than saving the policy.
 */
export function AddLaunchSpec({ onAdd }: { onAdd: (spec: LaunchSpec) => string | null }) {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<{ program?: string[]; why?: string[]; form?: string[] }>({});
  const [added, setAdded] = useState<string | null>(null);
  const programInput = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const spec: LaunchSpec = {
    program: draft.program.trim(),
    args: parseArgs(draft.args),
    rest: draft.rest,
    audience: draft.audience,
    why: draft.why.trim(),
  };
  const isOpen = !isExactSpec(spec);

  const add = () => {
    const next: typeof errors = {};
    if (!spec.program) next.program = ["Enter a program name (e.g. npx) or an absolute path."];
    // The same rule the policy's schema applies on save, said before the spec joins the list.
    if (spec.audience === "everyone" && isOpen && !spec.why) {
      next.why = ["Open to every workspace with placeholders or further arguments: say why."];
    }
    if (!next.program && !next.why) {
      const refusal = onAdd(spec);
      if (refusal) next.form = [refusal];
    }
    setErrors(next);
    if (Object.keys(next).length > 0) {
      setAdded(null);
      return;
    }
    setAdded([spec.program, ...spec.args, ...(spec.rest ? ["…"] : [])].join(" "));
    setDraft(emptyDraft);
    programInput.current?.focus();
  };
  const addOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    add();
  };

  return (
    <fieldset aria-labelledby={headingId} className="min-w-0 rounded-md border border-slate-200 p-4">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Add a launch spec
      </h3>
      <div className="mt-3 grid grid-cols-1 gap-4 sm:grid-cols-[14rem_minmax(0,1fr)]">
        <Field
          id="spec-program"
          label="Program"
          errors={errors.program}
          hint="A name on the PATH above, or an absolute path."
        >
          <TextInput
            ref={programInput}
            id="spec-program"
            value={draft.program}
            invalid={!!errors.program}
            onChange={(e) => set("program", e.target.value)}
            onKeyDown={addOnEnter}
            placeholder="npx"
            className={`${inputClass} font-mono`}
            autoComplete="off"
          />
        </Field>
        <Field
          id="spec-args"
          label="Arguments"
          hint="One argument per line, exactly as the program receives it; a placeholder takes a line of its own."
        >
          <TextArea
            id="spec-args"
            rows={3}
            value={draft.args}
            onChange={(e) => set("args", e.target.value)}
            placeholder={"-y\n{package}"}
          />
        </Field>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Who may register it</legend>
          <div className="mt-1 space-y-1 text-sm text-slate-700">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="spec-audience"
                checked={draft.audience === "owners"}
                onChange={() => set("audience", "owners")}
              />
              Instance owners only
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="spec-audience"
                checked={draft.audience === "everyone"}
                onChange={() => set("audience", "everyone")}
              />
              Every workspace
            </label>
          </div>
          <label className="mt-3 flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={draft.rest} onChange={(e) => set("rest", e.target.checked)} />
            Further arguments allowed
          </label>
        </fieldset>
        <Field
          id="spec-why"
          label="Why"
          errors={errors.why}
          hint="Shown beside the spec, so the next owner knows what it is for."
        >
          <TextInput
            id="spec-why"
            value={draft.why}
            invalid={!!errors.why}
            onChange={(e) => set("why", e.target.value)}
            onKeyDown={addOnEnter}
            maxLength={300}
          />
        </Field>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={add}>
          Add spec
        </Button>
        {spec.program ? (
          <span className="text-xs text-slate-500">
            Adds <SpecPattern spec={spec} />
          </span>
        ) : null}
      </div>
      {errors.form ? (
        <p role="alert" className="mt-2 text-xs text-red-700">
          {errors.form.join(" ")}
        </p>
      ) : null}
      <p role="status" className="mt-2 text-xs text-slate-600">
        {added ? `Added "${added}" to the list above: save the policy to apply it.` : null}
      </p>
    </fieldset>
  );
}
