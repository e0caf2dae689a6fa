import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

/** One zod failure → one AppError("validation") with per-field messages a person can act on. */
export function validationError(error: z.ZodError, subject = "The request"): AppError {
  const fieldErrors: FieldErrors = {};
  const add = (field: string, message: string) => {
    const list = fieldErrors[field] ?? [];
    if (!list.includes(message)) list.push(message);
    fieldErrors[field] = list;
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
  return new AppError("validation", message, { fieldErrors });
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, subject?: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, subject);
  return result.data;
}
