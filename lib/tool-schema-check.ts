import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020";
import { isRecord } from "@/lib/is-record";

/**
 * Checks arguments against the tool's own input schema with ajv, and says what is wrong in words:
 * each problem is a path into the arguments and what is wrong there ("must be at least 1"), for
 * the form to show beside the field it concerns.
 *
 * The schema comes from a downstream server and is not trusted: it compiles without fetching
 * anything (a remote $ref fails the compile), and a schema ajv cannot compile is not checked here
 * at all — the tool still validates its own input. Formats are not checked (no ajv-formats): the
 * form hints at them, the tool enforces them.
 */

export type SchemaProblem = { path: string[]; problem: string };

const options = {
  strict: false,
  allErrors: true,
  validateSchema: false,
  addUsedSchema: false,
  logger: false,
} as const;
// The MCP SDK validates with draft-07 (ajv's default); a schema that names 2020-12 or 2019-09
// gets the 2020 vocabulary ($defs, prefixItems), which draft-07 would silently ignore.
const draft07 = new Ajv({ ...options, validateFormats: false });
const draft2020 = new Ajv2020({ ...options, validateFormats: false });
const compiled = new WeakMap<object, ValidateFunction | null>();

function compile(schema: Record<string, unknown>): ValidateFunction | null {
  if (compiled.has(schema)) return compiled.get(schema) ?? null;
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const ajv = /20(20-12|19-09)/.test(dialect) ? draft2020 : draft07;
  let validate: ValidateFunction | null;
  try {
    validate = ajv.compile(schema);
  } catch {
    validate = null;
  }
  // The compiled function is kept here, per schema object; ajv need not hold every schema seen.
  ajv.removeSchema(schema);
  compiled.set(schema, validate);
  return validate;
}

/** The problems of `value` against `schema`, or null when the schema cannot be checked here. */
export function checkAgainstSchema(schema: unknown, value: unknown): SchemaProblem[] | null {
  if (!isRecord(schema)) return schema === undefined ? [] : null;
  const validate = compile(schema);
  if (!validate) return null;
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  // A union's own error says it; the errors of each branch it tried would only confuse.
  const unions = errors
    .filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf")
    .map((e) => e.schemaPath);
  return errors
    .filter((e) => !unions.some((union) => e.schemaPath !== union && e.schemaPath.startsWith(`${union}/`)))
    .map(toProblem);
}

const pathOf = (pointer: string) =>
  pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));

const typeNames: Record<string, string> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  null: "null",
};

const count = (n: unknown, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const show = (value: unknown) => (typeof value === "string" ? `“${value}”` : JSON.stringify(value));

function toProblem(error: ErrorObject): SchemaProblem {
  const path = pathOf(error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { path: [...path, String(p.missingProperty)], problem: "is required" };
    case "additionalProperties":
      return { path: [...path, String(p.additionalProperty)], problem: "is not an argument the tool takes" };
    case "type": {
      const types = String(p.type)
        .split(",")
        .map((t) => typeNames[t] ?? t);
      return { path, problem: `must be ${types.join(" or ")}` };
    }
    case "minimum":
      return { path, problem: `must be at least ${p.limit}` };
    case "maximum":
      return { path, problem: `must be at most ${p.limit}` };
    case "exclusiveMinimum":
      return { path, problem: `must be more than ${p.limit}` };
    case "exclusiveMaximum":
      return { path, problem: `must be less than ${p.limit}` };
    case "multipleOf":
      return { path, problem: `must be a multiple of ${p.multipleOf}` };
    case "minLength":
      return { path, problem: `must be at least ${count(p.limit, "character")} long` };
    case "maxLength":
      return { path, problem: `must be at most ${count(p.limit, "character")} long` };
    case "pattern":
      return { path, problem: `must match the pattern ${p.pattern}` };
    case "minItems":
      return { path, problem: `must have at least ${count(p.limit, "item")}` };
    case "maxItems":
      return { path, problem: `must have at most ${count(p.limit, "item")}` };
    case "uniqueItems":
      return {
        path,
        problem: `must not repeat an item (items ${Number(p.j) + 1} and ${Number(p.i) + 1} are the same)`,
      };
    case "minProperties":
      return { path, problem: `must have at least ${count(p.limit, "property", "properties")}` };
    case "maxProperties":
      return { path, problem: `must have at most ${count(p.limit, "property", "properties")}` };
    case "enum":
      return { path, problem: `must be one of ${(p.allowedValues as unknown[]).map(show).join(", ")}` };
    case "const":
      return { path, problem: `must be ${show(p.allowedValue)}` };
    case "anyOf":
    case "oneOf":
      return { path, problem: "does not match any of the shapes the tool accepts" };
    default:
      // Rarer keywords (not, if/then, dependencies…): ajv's own words, which also start with "must".
      return { path, problem: error.message ?? "is not valid" };
  }
}
