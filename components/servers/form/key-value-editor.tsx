"use client";

import { Button } from "@/components/ui/button";
import { FieldErrors, inputClass } from "@/components/ui/field";
import type { FieldErrors as Errors } from "@/lib/errors";

export type ValueKind = "text" | "secret" | "env";
export type KeyValueRow = { id: string; key: string; kind: ValueKind; value: string };
type ConfigValue = string | { secret: string } | { fromEnv: string };

export function toConfigRecord(rows: KeyValueRow[]): Record<string, ConfigValue> {
  return Object.fromEntries(
    rows.filter((r) => r.key.trim() !== "").map((r) => [r.key.trim(), toConfigValue(r)]),
  );
}

export function toConfigValue(row: Pick<KeyValueRow, "kind" | "value">): ConfigValue {
  if (row.kind === "secret") return { secret: row.value.trim() };
  if (row.kind === "env") return { fromEnv: row.value.trim() };
  return row.value;
}

export function fromValueView(value: unknown): Pick<KeyValueRow, "kind" | "value"> {
  if (typeof value === "string") return { kind: "text", value };
  if (value && typeof value === "object" && "secret" in value)
    return { kind: "secret", value: String(value.secret) };
  if (value && typeof value === "object" && "fromEnv" in value)
    return { kind: "env", value: String(value.fromEnv) };
  return { kind: "text", value: "" };
}

export const newRow = (): KeyValueRow => ({ id: crypto.randomUUID(), key: "", kind: "text", value: "" });

const placeholders: Record<ValueKind, string> = {
  text: "value",
  secret: "secret name",
  env: "VARIABLE_NAME",
};

/**
 * Rows of name → value, where a value is plain text (not secret), a stored secret's name, or a
 * variable of Switchboard's own environment. Secret values are never typed here.
 */
export function KeyValueEditor({
  id,
  label,
  keyPlaceholder,
  rows,
  onChange,
  errors,
  errorPrefix,
}: {
  id: string;
  label: string;
  keyPlaceholder: string;
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  errors: Errors;
  errorPrefix: string;
}) {
  const update = (rowId: string, patch: Partial<KeyValueRow>) =>
    onChange(rows.map((r) => (r.id === rowId ? { ...r, ...patch } : r)));
  const ownErrors = Object.entries(errors).filter(
    ([k]) => k === errorPrefix || k.startsWith(`${errorPrefix}.`),
  );

  return (
    <fieldset id={id}>
      <legend className="text-sm font-medium text-slate-800">{label}</legend>
      <div className="mt-1 space-y-2">
        {rows.map((row, index) => (
          // Columns of their own: in a flex row the name gave way as much as the value did, and
          // names like GITHUB_PERSONAL_ACCESS_TOKEN were cut off while being typed.
          <div
            key={row.id}
            className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 sm:grid-cols-[minmax(12rem,18rem)_7rem_minmax(8rem,1fr)_auto]"
          >
            <input
              aria-label={`${label} ${index + 1} name`}
              title={row.key || undefined}
              className={`${inputClass} font-mono`}
              placeholder={keyPlaceholder}
              value={row.key}
              onChange={(e) => update(row.id, { key: e.target.value })}
            />
            <select
              aria-label={`${label} ${index + 1} kind`}
              className={inputClass}
              value={row.kind}
              onChange={(e) => update(row.id, { kind: e.target.value as ValueKind })}
            >
              <option value="text">Text</option>
              <option value="secret">Secret</option>
              <option value="env">Env var</option>
            </select>
            <input
              aria-label={`${label} ${index + 1} value`}
              className={`${inputClass} font-mono`}
              placeholder={placeholders[row.kind]}
              value={row.value}
              onChange={(e) => update(row.id, { value: e.target.value })}
            />
            <Button
              variant="ghost"
              aria-label={`Remove ${label.toLowerCase()} ${index + 1}`}
              onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
            >
              ✕
            </Button>
          </div>
        ))}
      </div>
      <Button variant="secondary" className="mt-2" onClick={() => onChange([...rows, newRow()])}>
        + Add
      </Button>
      {ownErrors.map(([field, messages]) => (
        <FieldErrors
          key={field}
          errors={messages.map((m) => `${field.slice(errorPrefix.length + 1) || label}: ${m}`)}
        />
      ))}
    </fieldset>
  );
}
