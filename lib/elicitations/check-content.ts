import { isRecord } from "@/lib/is-record";
import { checkAgainstSchema } from "@/lib/tool-schema-check";

/**
 * Whether an operator's answer fits the form the server asked for (its requestedSchema). MCP keeps
 * that schema to a flat object of primitive fields (text, number, whole number, true/false, a
 * choice or several), and the SDK checked its shape on arrival; ajv checks the values against it.
 * The schema comes from a downstream server and is not trusted: it compiles without fetching
 * anything, and one that cannot be compiled accepts no values at all (the answer can still be
 * decline or cancel). Formats (email, uri, date) are not checked: the server validates its own.
 */

export type ContentProblems = Record<string, string>;

/** Per field, what is wrong with `content`; empty when it fits. `_` is a problem of the whole form. */
export function contentProblems(
  schema: Record<string, unknown>,
  content: Record<string, unknown>,
): ContentProblems {
  const problems: ContentProblems = Object.create(null);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const field of Object.keys(content)) {
    if (!Object.hasOwn(properties, field)) problems[field] = "is not a field of this form";
  }
  // The same check, and the same words, as a tool's arguments get (lib/tool-schema-check.ts).
  const found = checkAgainstSchema(schema, content);
  if (found === null) {
    problems._ = "The server's form cannot be checked, so it can only be declined or cancelled.";
    return { ...problems };
  }
  for (const { path, problem } of found) {
    const field = path[0] ?? "_";
    if (!Object.hasOwn(problems, field)) problems[field] = problem;
  }
  return { ...problems };
}
