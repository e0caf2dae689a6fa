import { isRecord } from "@/components/servers/detail/format";
import type { FormField } from "./form-model";

/**
 * The form's value is the arguments object itself: what a field shows is what will be sent. A
 * field left empty holds `undefined` and is left out (so an empty optional string is not sent as
 * ""); a JSON field that does not parse holds an InvalidJson until it does.
 */

export type Args = Record<string, unknown>;

export class InvalidJson {
  constructor(readonly text: string) {}
}

/** Defaults filled in, so the form shows what the tool would assume anyway. */
export function initialValues(fields: FormField[]): Args {
  const values: Args = {};
  for (const field of fields) {
    if (field.defaultValue !== undefined) values[field.name] = structuredClone(field.defaultValue);
    else if (field.type.kind === "object" && field.isRequired)
      values[field.name] = initialValues(field.type.fields);
  }
  return values;
}

export type FormErrors = Record<string, string>;

/** Missing required fields, JSON that does not parse, numbers that must be whole: keyed by path. */
export function validateValues(fields: FormField[], values: Args, prefix = ""): FormErrors {
  const errors: FormErrors = {};
  for (const field of fields) {
    const path = `${prefix}${field.name}`;
    const value = values[field.name];
    if (value === undefined) {
      if (field.isRequired) errors[path] = "Required.";
      continue;
    }
    if (value instanceof InvalidJson) errors[path] = "Not valid JSON yet.";
    else if (field.type.kind === "number" && field.type.isInteger && !Number.isInteger(value)) {
      errors[path] = "Must be a whole number.";
    } else if (field.type.kind === "object" && isRecord(value)) {
      Object.assign(errors, validateValues(field.type.fields, value, `${path}.`));
    }
  }
  return errors;
}

/** The value tree without undefined holes (also inside arrays: a blank row is not an item). */
export function cleanValue(value: unknown): unknown {
  if (value instanceof InvalidJson) return undefined;
  if (Array.isArray(value)) return value.map(cleanValue).filter((item) => item !== undefined);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .map(([k, v]) => [k, cleanValue(v)] as const)
      .filter(([, v]) => v !== undefined),
  );
}

export const formatJson = (value: unknown) => JSON.stringify(cleanValue(value), null, 2) ?? "";

/** What the JSON editor holds (parsed JSON, InvalidJson or nothing) as arguments, or why it is not. */
export function toArgs(value: unknown): { ok: true; args: Args } | { ok: false; message: string } {
  if (value === undefined) return { ok: true, args: {} };
  if (value instanceof InvalidJson) return { ok: false, message: "Not valid JSON yet." };
  return isRecord(value)
    ? { ok: true, args: value }
    : { ok: false, message: "The arguments must be a JSON object." };
}

export const fieldId = (path: string) => `arg-${path.replace(/[^A-Za-z0-9_-]/g, "_")}`;
