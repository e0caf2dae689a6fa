"use client";

import { useId, useState, useTransition } from "react";
import { answerElicitationAction } from "@/app/(dashboard)/approvals/elicitation-actions";
import { FormError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, FieldErrors, inputClass, TextInput } from "@/components/ui/field";
import type { ElicitationAction, ElicitationDto } from "@/lib/elicitations/types";
import { contentOf, type ElicitationField, type FormValues, fieldsOf } from "./elicitation-fields";

/**
 * The answer to one server question: a form built from its requestedSchema, and Accept (with the
 * values), Decline or Cancel. The server's schema is checked again when the answer is sent; what it
 * refuses shows beside the field it concerns.
 */
export function ElicitationForm({
  elicitation,
  canDecide,
  onAnswered,
}: {
  elicitation: ElicitationDto;
  canDecide: boolean;
  onAnswered: (action: ElicitationAction) => void;
}) {
  const fields = fieldsOf(elicitation.requestedSchema);
  const [values, setValues] = useState<FormValues>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const formId = useId();

  const send = (action: ElicitationAction) =>
    startTransition(async () => {
      const answer = action === "accept" ? { action, content: contentOf(fields, values) } : { action };
      const result = await answerElicitationAction(elicitation.id, answer);
      if (result.ok) return onAnswered(action);
      setFieldErrors(result.error.fieldErrors ?? {});
      setMessage(result.error.message);
    });

  return (
    <form
      aria-label={`Answer for ${elicitation.serverName}`}
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        send("accept");
      }}
    >
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          id={`${formId}-${field.name}`}
          field={field}
          value={values[field.name] ?? field.initial}
          errors={fieldErrors[field.name]}
          disabled={!canDecide || pending}
          onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
        />
      ))}
      <FormError message={message} fieldErrors={fieldErrors} />
      {fieldErrors._ ? <FieldErrors errors={fieldErrors._} /> : null}
      {canDecide ? (
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={pending}>
            Accept
          </Button>
          <Button variant="secondary" disabled={pending} onClick={() => send("decline")}>
            Decline
          </Button>
          <Button variant="ghost" disabled={pending} onClick={() => send("cancel")}>
            Cancel question
          </Button>
        </div>
      ) : (
        <p className="text-xs text-slate-500">Only approvers and admins can answer.</p>
      )}
    </form>
  );
}

function FieldInput(props: {
  id: string;
  field: ElicitationField;
  value: string | boolean | string[];
  errors?: string[];
  disabled: boolean;
  onChange: (value: string | boolean | string[]) => void;
}) {
  const { id, field, value, errors, disabled, onChange } = props;
  const common = { id, disabled, "aria-invalid": errors?.length ? true : undefined };
  if (field.kind === "boolean") {
    return (
      <div>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />
          {field.label}
        </label>
        {field.description ? <p className="mt-1 text-xs text-slate-500">{field.description}</p> : null}
        <FieldErrors errors={errors} />
      </div>
    );
  }
  if (field.kind === "choices") {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{field.label}</legend>
        {field.options.map((option) => (
          <label key={option.value} className="mt-1 flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              disabled={disabled}
              checked={chosen.includes(option.value)}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value),
                )
              }
            />
            {option.label}
          </label>
        ))}
        <FieldErrors errors={errors} />
      </fieldset>
    );
  }
  return (
    <Field id={id} label={field.label} hint={field.description} errors={errors} required={field.required}>
      {field.kind === "choice" ? (
        <select
          {...common}
          className={inputClass}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">Choose…</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <TextInput
          {...common}
          invalid={Boolean(errors?.length)}
          type={field.kind === "text" ? "text" : "number"}
          step={field.kind === "integer" ? 1 : "any"}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
