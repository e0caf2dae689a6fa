import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

/** One zod failure → one AppError("validation") with per-field messages a person can act on. */
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
      add(base || "_", humanize(issue));
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
  const result = schema.safeParse(input);
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

/** zod's own wording ("Invalid input: expected string, received number") rewritten for people. */
function humanize(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_key") return issue.issues[0]?.message ?? "This name is not allowed.";
  if (!/^(Invalid|Too )/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type": {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      if (received === "undefined") return "This field is required.";
      const expected = expectedWords[issue.expected] ?? issue.expected;
      return `Expected ${expected}${received ? `, got ${received === "array" ? "a list" : `a ${received}`}` : ""}.`;
    }
    case "too_big":
      return `Must be at most ${issue.maximum}${unitOf(issue.origin)}.`;
    case "too_small":
      return `Must be at least ${issue.minimum}${unitOf(issue.origin)}.`;
    default:
      return issue.message;
  }
}

function unitOf(origin: string): string {
  if (origin === "string") return " characters";
  if (origin === "array" || origin === "set") return " items";
  return "";
}
