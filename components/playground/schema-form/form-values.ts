import { isRecord } from "@/components/ui/format";
import { checkAgainstSchema } from "@/lib/tool-schema-check";
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

/** The key of a problem no field shows (the arguments as a whole): said above the Run button. */
export const FORM_LEVEL = "";

/**
 * What is wrong with the form's value, keyed by the path of the field that shows it: JSON that does
 * not parse yet, then whatever the tool's input schema refuses (checked by ajv, lib/tool-schema-check.ts).
 * A problem inside a list or a JSON field is said at that field, naming the item.
 */
export function validateValues(schema: unknown, fields: FormField[], values: Args): FormErrors {
  const errors: FormErrors = {};
  collectInvalidJson(values, [], errors);
  for (const { path, problem } of checkAgainstSchema(schema, cleanValue(values)) ?? []) {
    const [key, subject] = attribute(fields, path);
    errors[key] ??= `${subject} ${problem}.`;
  }
  return errors;
}

/** The JSON editor's value against the schema: one line per problem, named by its path. */
export function validateJsonArgs(schema: unknown, args: Args): string[] {
  return (checkAgainstSchema(schema, args) ?? []).map(
    ({ path, problem }) => `${path.length ? path.join(".") : "The arguments"} ${problem}.`,
  );
}

function collectInvalidJson(value: unknown, path: string[], errors: FormErrors) {
  if (value instanceof InvalidJson) errors[path.join(".")] = "Not valid JSON yet.";
  else if (isRecord(value)) {
    for (const [name, inner] of Object.entries(value)) collectInvalidJson(inner, [...path, name], errors);
  }
}

/** The field a path into the arguments belongs to (the deepest one the form shows), and its wording. */
function attribute(fields: FormField[], path: string[]): [key: string, subject: string] {
  let level = fields;
  let depth = 0;
  for (; depth < path.length; depth++) {
    const field = level.find((f) => f.name === path[depth]);
    if (!field) break;
    if (field.type.kind !== "object" || depth === path.length - 1) {
      depth++;
      break;
    }
    level = field.type.fields;
  }
  if (depth === 0) return [FORM_LEVEL, path.length ? path.join(".") : "The arguments"];
  const rest = path.slice(depth).map((s) => (/^\d+$/.test(s) ? `item ${Number(s) + 1}` : `→ ${s}`));
  return [path.slice(0, depth).join("."), [path[depth - 1], ...rest].join(" ")];
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
