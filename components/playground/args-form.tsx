"use client";

import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useState } from "react";
import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { Button } from "@/components/ui/button";
import { FieldErrors } from "@/components/ui/field";
import { FieldList } from "./schema-form/field-list";
import { isFormable, toFormFields } from "./schema-form/form-model";
import {
  type Args,
  cleanValue,
  FORM_LEVEL,
  type FormErrors,
  fieldId,
  initialValues,
  toArgs,
  validateJsonArgs,
  validateValues,
} from "./schema-form/form-values";
import { JsonInput } from "./schema-form/json-input";

type Props = {
  tool: Pick<GovernedToolDto, "definition">;
  isRunning: boolean;
  canRun: boolean;
  onRun: (args: Args) => void;
  /** start from these arguments rather than the schema's defaults (an approver editing a call) */
  initialArgs?: Args;
  /** the submit button's words, idle and busy (default: Run, Running…) */
  submitLabels?: [string, string];
  /** problems the server found, by field path, shown beside their fields */
  serverErrors?: FormErrors;
};

/**
 * The tool's arguments: a form generated from its input schema, or the same value as JSON for
 * anything the form cannot say. Switching keeps the value; the parent remounts this per tool.
 * The playground runs what it says; the approval page reuses it to edit a held call's arguments.
 */
export function ArgsForm({ tool, isRunning, canRun, onRun, initialArgs, submitLabels, serverErrors }: Props) {
  const schema = tool.definition.inputSchema;
  const fields = useMemo(() => toFormFields(schema), [schema]);
  const [mode, setMode] = useState<"form" | "json">(isFormable(schema) ? "form" : "json");
  const [values, setValues] = useState<Args>(() => initialArgs ?? initialValues(fields));
  const [jsonValue, setJsonValue] = useState<unknown>(values);
  // Bumped when the value is replaced from outside, so text inputs start from the new value.
  const [version, setVersion] = useState(0);
  const [errors, setErrors] = useState<FormErrors>({});
  const [jsonError, setJsonError] = useState<string | null>(null);
  // The server has the last word (the same schema, checked again, and more): its problems show
  // beside their fields, or above the JSON when that is what is being edited.
  useEffect(() => {
    if (!serverErrors) return;
    setErrors(serverErrors);
    const messages = Object.values(serverErrors);
    if (messages.length > 0) setJsonError(messages.join(" "));
  }, [serverErrors]);

  const toJson = () => {
    setJsonValue(cleanValue(values));
    setJsonError(null);
    setVersion((v) => v + 1);
    setMode("json");
  };
  const toForm = () => {
    const parsed = toArgs(jsonValue);
    if (!parsed.ok) return setJsonError(`${parsed.message} Fix it to switch back to the form.`);
    setValues(parsed.args);
    setErrors({});
    setVersion((v) => v + 1);
    setMode("form");
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === "json") {
      const parsed = toArgs(jsonValue);
      if (!parsed.ok) return setJsonError(parsed.message);
      const problems = validateJsonArgs(schema, parsed.args);
      setJsonError(problems.length ? problems.join(" ") : null);
      return problems.length ? undefined : onRun(parsed.args);
    }
    const found = validateValues(schema, fields, values);
    setErrors(found);
    const first = Object.keys(found).find((key) => key !== FORM_LEVEL);
    if (first !== undefined) return document.getElementById(fieldId(first))?.focus();
    if (found[FORM_LEVEL] !== undefined) return;
    onRun(cleanValue(values) as Args);
  };
  // Ctrl/⌘+Enter runs from anywhere in the form, text areas included.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit(event);
  };

  return (
    <form onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label="Arguments">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="text-sm font-semibold text-slate-900">Arguments</h2>
        <Button
          variant="ghost"
          className="px-2 py-1 text-xs"
          aria-pressed={mode === "json"}
          onClick={mode === "json" ? toForm : toJson}
        >
          {mode === "json" ? "Back to form" : "Edit as JSON"}
        </Button>
      </div>
      {mode === "json" ? (
        <div>
          <JsonInput
            key={version}
            id="args-json"
            label="Arguments as JSON"
            rows={10}
            value={jsonValue}
            isInvalid={!!jsonError}
            onChange={setJsonValue}
          />
          <FieldErrors id="args-json-error" errors={jsonError ? [jsonError] : undefined} />
        </div>
      ) : fields.length === 0 ? (
        <p className="text-sm text-slate-500">
          This tool declares no arguments. Use JSON to send some anyway.
        </p>
      ) : (
        <FieldList key={version} fields={fields} value={values} errors={errors} onChange={setValues} />
      )}
      {mode === "form" ? (
        <FieldErrors id="args-form-error" errors={errors[FORM_LEVEL] ? [errors[FORM_LEVEL]] : undefined} />
      ) : null}
      <div className="mt-5 flex items-center gap-3">
        <Button type="submit" disabled={!canRun || isRunning} aria-busy={isRunning || undefined}>
          {isRunning ? (submitLabels?.[1] ?? "Running…") : (submitLabels?.[0] ?? "Run")}
        </Button>
        <span className="text-xs text-slate-500">Ctrl + Enter</span>
      </div>
    </form>
  );
}
