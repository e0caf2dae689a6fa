import { Field, FieldErrors } from "@/components/ui/field";
import { isRecord } from "@/components/ui/format";
import { ArrayInput } from "./array-input";
import type { FormField } from "./form-model";
import { type Args, type FormErrors, fieldId } from "./form-values";
import { JsonInput } from "./json-input";
import { PrimitiveInput } from "./primitive-input";

type Props = {
  fields: FormField[];
  value: Args;
  errors: FormErrors;
  prefix?: string;
  onChange: (value: Args) => void;
};

/** The fields of one object, nested objects as fieldsets; names and descriptions come from the server. */
export function FieldList({ fields, value, errors, prefix = "", onChange }: Props) {
  const setField = (name: string, next: unknown) => {
    const copy = { ...value };
    if (next === undefined) delete copy[name];
    else copy[name] = next;
    onChange(copy);
  };

  return (
    <div className="space-y-4">
      {fields.map((field) => {
        const path = `${prefix}${field.name}`;
        const id = fieldId(path);
        const error = errors[path];
        const current = value[field.name];
        if (field.type.kind === "object") {
          return (
            <fieldset key={field.name} className="rounded-md border border-slate-200 p-3">
              <legend className="px-1 font-mono text-sm font-medium text-slate-800">
                {field.name}
                {field.isRequired ? (
                  <span aria-hidden className="ml-0.5 text-red-600">
                    *
                  </span>
                ) : null}
              </legend>
              {field.description ? <p className="mb-2 text-xs text-slate-500">{field.description}</p> : null}
              <FieldErrors id={`${id}-error`} errors={error ? [error] : undefined} />
              <FieldList
                fields={field.type.fields}
                value={isRecord(current) ? current : {}}
                errors={errors}
                prefix={`${path}.`}
                onChange={(next) =>
                  setField(field.name, Object.keys(next).length || field.isRequired ? next : undefined)
                }
              />
            </fieldset>
          );
        }
        return (
          <Field
            key={field.name}
            id={id}
            label={field.name}
            required={field.isRequired}
            hint={hintOf(field)}
            errors={error ? [error] : undefined}
          >
            {field.type.kind === "array" ? (
              <ArrayInput
                id={id}
                name={field.name}
                item={field.type.item}
                value={current}
                isInvalid={!!error}
                onChange={(next) => setField(field.name, next)}
              />
            ) : field.type.kind === "json" ? (
              <JsonInput
                id={id}
                value={current}
                isInvalid={!!error}
                onChange={(next) => setField(field.name, next)}
              />
            ) : (
              <PrimitiveInput
                id={id}
                type={field.type}
                value={current}
                isRequired={field.isRequired}
                isInvalid={!!error}
                onChange={(next) => setField(field.name, next)}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}

function hintOf(field: FormField): string | undefined {
  const parts = [
    field.description,
    field.type.kind === "json" ? "JSON (the form cannot express this type)" : null,
    field.defaultValue !== undefined ? `default ${JSON.stringify(field.defaultValue)}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : undefined;
}
