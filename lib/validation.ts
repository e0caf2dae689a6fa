import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

/**
 * One zod failure → one AppError("validation") with per-field messages a person can act on. The
 * messages are the issues' own: parse with `humanIssueMessages` (parseOrThrow does) to word them.
 */
export function validationError(error: z.ZodError, subject = "The request"): AppError {
  // No prototype: a field named "constructor" or "__proto__" must be a plain key, not Object's.
  const fieldErrors: FieldErrors = Object.create(null);
  const add = (field: string, message: string) => {
    const list = Object.hasOwn(fieldErrors, field) ? (fieldErrors[field] as string[]) : [];
    if (!list.includes(message)) list.push(message);
    Object.defineProperty(fieldErrors, field, {
      value: list,
      enumerable: true,
      configurable: true,
      writable: true,
    });
  };
  for (const issue of error.issues) {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, `Unknown field "${key}".`);
    } else {
      add(base || "_", issue.message);
    }
  }
  const fields = Object.keys(fieldErrors).filter((f) => f !== "_");
  const first = Object.values(fieldErrors)[0]?.[0];
  const message =
    fields.length === 0
      ? `${subject} is invalid: ${first ?? "unexpected shape"}`
      : `${subject} has ${fields.length === 1 ? "a problem" : `${fields.length} problems`}: ${fields
          .map((f) => `${f} — ${fieldErrors[f]?.[0]}`)
          .join(" ")}`;
  return new AppError("validation", message, { fieldErrors: { ...fieldErrors } });
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, subject?: string): z.infer<S> {
  const result = schema.safeParse(input, { error: humanIssueMessages });
  if (!result.success) throw validationError(result.error, subject);
  return result.data;
}

/** A schema-level message used only when the value is missing; other problems keep their own. */
export const whenMissing = (message: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? message : undefined),
});

const expectedWords: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
};

/**
 * The messages for zod's built-in checks, worded for people ("Expected a number, got a string.").
 * Given to each parse as its error map: zod asks a schema's own `error` first and this only when
 * that has nothing to say, so a custom message is never rewritten and zod's English is never read.
 * Per parse rather than `z.config`: the MCP SDK's schemas share this zod, and their wording is theirs.
 */
export const humanIssueMessages: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "This field is required.";
      return `Expected ${expectedWords[issue.expected] ?? issue.expected}, got ${describeReceived(issue.input)}.`;
    }
    case "too_big":
      return `Must be at most ${issue.maximum}${unitOf(issue.origin)}.`;
    case "too_small":
      return `Must be at least ${issue.minimum}${unitOf(issue.origin)}.`;
    case "invalid_key":
      // A record key the key schema refused: its own message says why.
      return issue.issues[0]?.message ?? "This name is not allowed.";
    default:
      return undefined; // zod's own message (formats, enums, unions)
  }
};

function describeReceived(input: unknown): string {
  if (Array.isArray(input)) return "a list";
  if (input === null) return "a null";
  if (typeof input === "number" && Number.isNaN(input)) return "NaN";
  return `a ${typeof input}`;
}

function unitOf(origin: string): string {
  if (origin === "string") return " characters";
  if (origin === "array" || origin === "set") return " items";
  return "";
}
