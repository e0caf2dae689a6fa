/**
 * Reading the document's JSON Schemas for people: a schema becomes rows of fields (dotted names
 * for nested objects, `[]` for lists), each with its type in words, whether it is required, and
 * its description. A union of objects (e.g. a server by transport) becomes one group per variant.
 */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
};

export type FieldRow = { name: string; type: string; isRequired: boolean; description: string };
export type FieldGroup = { label: string | null; rows: FieldRow[] };

export type Components = Record<string, JsonSchema>;

const MAX_DEPTH = 3;

export function resolve(schema: JsonSchema, components: Components): JsonSchema {
  const name = refName(schema);
  if (!name) return schema;
  const target = components[name] ?? {};
  // A $ref beside a description: the description is this use's own.
  return schema.description ? { ...target, description: schema.description } : target;
}

export const refName = (schema: JsonSchema) => schema.$ref?.replace("#/components/schemas/", "");

/** The schema's fields, in groups: one group, or one per variant of a union of objects. */
export function fieldGroups(input: JsonSchema, components: Components): FieldGroup[] {
  const schema = resolve(input, components);
  const variants = (schema.oneOf ?? schema.anyOf)?.map((v) => resolve(v, components));
  if (variants?.every(isObject)) {
    return variants.map((variant) => ({
      label: variantLabel(variant),
      rows: fieldRows(variant, components),
    }));
  }
  if (schema.allOf) return schema.allOf.flatMap((part) => fieldGroups(part, components));
  return isObject(schema) ? [{ label: null, rows: fieldRows(schema, components) }] : [];
}

function fieldRows(schema: JsonSchema, components: Components, prefix = "", depth = 0): FieldRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, raw]) => {
    const field = resolve(raw, components);
    const name = `${prefix}${key}`;
    const row: FieldRow = {
      name,
      type: typeOf(raw, components),
      isRequired: required.has(key),
      description: describeField(field),
    };
    // Nested objects (and lists of objects) are spelled out, unless they are a named type.
    const inner = unwrapNullable(field);
    const nested = inner.type === "array" && inner.items ? resolve(inner.items, components) : inner;
    const isNamed = Boolean(refName(raw) ?? (inner.type === "array" && inner.items && refName(inner.items)));
    if (isNamed || depth >= MAX_DEPTH || !isObject(nested) || !nested.properties) return [row];
    const childPrefix = `${name}${inner.type === "array" ? "[]" : ""}.`;
    return [row, ...fieldRows(nested, components, childPrefix, depth + 1)];
  });
}

/** A type in words: `string`, `integer (1–200)`, `"a" | "b"`, `list of Server`, `map of ValueView`. */
export function typeOf(schema: JsonSchema, components: Components): string {
  const name = refName(schema);
  if (name) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return [...new Set(union.map((v) => typeOf(v, components)))].join(" | ");
  if (schema.allOf) return schema.allOf.map((v) => typeOf(v, components)).join(" & ");
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (schema.type === "array") return schema.items ? `list of ${typeOf(schema.items, components)}` : "list";
  if (schema.type === "object" || schema.properties) {
    const values = schema.additionalProperties;
    if (!schema.properties && values && typeof values === "object")
      return `map of ${typeOf(values, components)}`;
    // A small object is named by its fields (`{ secret, isSet }`); a larger one is spelled out in rows.
    const keys = Object.keys(schema.properties ?? {});
    return keys.length > 0 && keys.length <= 3 ? `{ ${keys.join(", ")} }` : "object";
  }
  return `${schema.type ?? "any"}${rangeOf(schema)}`;
}

function rangeOf(schema: JsonSchema): string {
  const [min, max] = (
    schema.type === "string" ? [schema.minLength, schema.maxLength] : [schema.minimum, schema.maximum]
  ).map(meaningfulBound);
  if (min === undefined && max === undefined) return "";
  if (max === undefined) return ` (≥ ${min})`;
  return min === undefined ? ` (≤ ${max})` : ` (${min}–${max})`;
}

/**
 * zod writes every integer's safe-integer limits (±9007199254740991) into the schema: they are
 * the limits of a JavaScript number, not a rule of this API, and only hide the bounds that mean
 * something.
 */
const meaningfulBound = (bound: number | undefined) =>
  bound !== undefined && Math.abs(bound) >= Number.MAX_SAFE_INTEGER ? undefined : bound;

function describeField(schema: JsonSchema): string {
  const parts = [schema.description ?? ""];
  if (schema.default !== undefined) parts.push(`Default: \`${JSON.stringify(schema.default)}\`.`);
  return parts.filter(Boolean).join(" ");
}

const isObject = (schema: JsonSchema) => schema.type === "object" || schema.properties !== undefined;

const unwrapNullable = (schema: JsonSchema): JsonSchema => {
  const options = schema.anyOf ?? schema.oneOf;
  const notNull = options?.filter((o) => o.type !== "null");
  return notNull?.length === 1 && notNull[0] ? notNull[0] : schema;
};

/** `transport: "stdio"`: the property whose constant tells the variants apart. */
function variantLabel(variant: JsonSchema): string | null {
  const entry = Object.entries(variant.properties ?? {}).find(([, p]) => p.const !== undefined);
  return entry ? `${entry[0]}: ${JSON.stringify(entry[1].const)}` : null;
}
