import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";

/**
 * Whether an operator's answer fits the form the server asked for (its requestedSchema). MCP keeps
 * that schema to a flat object of primitive fields (text, number, whole number, true/false, a
 * choice or several), and the SDK checked its shape on arrival; ajv checks the values against it.
 * The schema comes from a downstream server and is not trusted: it compiles without fetching
 * anything, and one that cannot be compiled accepts no values at all (the answer can still be
 * decline or cancel). Formats (email, uri, date) are not checked: the server validates its own.
 */

export type ContentProblems = Record<string, string>;

const ajv = new Ajv({
  strict: false,
  allErrors: true,
  validateSchema: false,
  addUsedSchema: false,
  validateFormats: false,
  logger: false,
});

function compile(schema: Record<string, unknown>): ValidateFunction | undefined {
  try {
    return ajv.compile(schema);
  } catch {
    return undefined;
  } finally {
    ajv.removeSchema(schema);
  }
}

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
  const validate = compile(schema);
  if (!validate) {
    problems._ = "The server's form cannot be checked, so it can only be declined or cancelled.";
    return { ...problems };
  }
  if (!validate(content)) {
    for (const error of validate.errors ?? []) {
      const [field, problem] = describeProblem(error);
      if (!Object.hasOwn(problems, field)) problems[field] = problem;
    }
  }
  return { ...problems };
}

function describeProblem(error: ErrorObject): [string, string] {
  const field = error.instancePath.split("/")[1]?.replaceAll("~1", "/").replaceAll("~0", "~") ?? "";
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return [String(p.missingProperty), "is required"];
    case "type":
      return [field || "_", `must be ${typeNames[String(p.type)] ?? String(p.type)}`];
    case "enum":
      return [
        field || "_",
        `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      ];
    default:
      return [field || "_", error.message ?? "is not valid"];
  }
}

const typeNames: Record<string, string> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
