import { isRecord, textOf } from "@/components/ui/format";

/** One property of a JSON Schema, flattened for a table; `depth` indents nested properties. */
export type SchemaRow = {
  path: string;
  name: string;
  depth: number;
  type: string;
  isRequired: boolean;
  description: string | null;
  constraints: string[];
  enumValues: string[];
  defaultValue: string | null;
};

// Schemas come from remote servers: bound the work a hostile or huge one can cause.
const MAX_DEPTH = 6;
const MAX_ROWS = 400;

type Context = { root: Record<string, unknown>; rows: SchemaRow[]; refs: string[] };

/** The properties of an object schema, nested objects and array items included, in schema order. */
export function toSchemaRows(schema: unknown): SchemaRow[] {
  if (!isRecord(schema)) return [];
  const context: Context = { root: schema, rows: [], refs: [] };
  visitProperties(schema, 0, "", context);
  return context.rows;
}

export function hasProperties(schema: unknown): boolean {
  return isRecord(schema) && isRecord(schema.properties) && Object.keys(schema.properties).length > 0;
}

function visitProperties(schema: Record<string, unknown>, depth: number, prefix: string, context: Context) {
  if (depth > MAX_DEPTH || !isRecord(schema.properties)) return;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, raw] of Object.entries(schema.properties)) {
    if (context.rows.length >= MAX_ROWS) return;
    const { schema: property, ref } = resolve(raw, context);
    const path = `${prefix}${name}`;
    context.rows.push(toRow(name, path, depth, property, required.has(name)));
    if (ref && context.refs.includes(ref)) continue; // a recursive type: listed once
    if (ref) context.refs.push(ref);
    const items = isRecord(property.items) ? resolve(property.items, context).schema : undefined;
    visitProperties(property, depth + 1, `${path}.`, context);
    if (items) visitProperties(items, depth + 1, `${path}[].`, context);
    if (ref) context.refs.pop();
  }
}

/** Follows a local `$ref` (`#/$defs/X`, `#/definitions/X`); anything else stays as it is. */
function resolve(raw: unknown, context: Context): { schema: Record<string, unknown>; ref?: string } {
  if (!isRecord(raw)) return { schema: {} };
  const ref = textOf(raw.$ref);
  if (!ref?.startsWith("#/")) return { schema: raw };
  let target: unknown = context.root;
  for (const segment of ref.slice(2).split("/")) {
    target = isRecord(target) ? target[segment.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  }
  return isRecord(target) ? { schema: { ...target, ...raw, $ref: undefined }, ref } : { schema: raw };
}

function toRow(
  name: string,
  path: string,
  depth: number,
  property: Record<string, unknown>,
  isRequired: boolean,
): SchemaRow {
  const items = isRecord(property.items) ? property.items : undefined;
  const enumSource = Array.isArray(property.enum) ? property.enum : items?.enum;
  return {
    path,
    name,
    depth,
    type: typeOf(property),
    isRequired,
    description: textOf(property.description) ?? textOf(property.title),
    constraints: constraintsOf(property),
    enumValues: Array.isArray(enumSource) ? enumSource.slice(0, 50).map(literal) : [],
    defaultValue: property.default === undefined ? null : literal(property.default),
  };
}

function typeOf(schema: unknown, level = 0): string {
  if (!isRecord(schema) || level > 3) return "any";
  if (schema.const !== undefined) return `const ${literal(schema.const)}`;
  const ref = textOf(schema.$ref);
  if (ref) return ref.split("/").pop() ?? ref;
  const variants = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : null;
  if (variants) return [...new Set(variants.map((v) => typeOf(v, level + 1)))].join(" | ");
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : textOf(schema.type)
      ? [String(schema.type)]
      : [];
  if (types.length === 0)
    return Array.isArray(schema.enum) ? "enum" : isRecord(schema.properties) ? "object" : "any";
  const format = textOf(schema.format);
  return types
    .map((type) => {
      if (type === "array") return `${typeOf(schema.items, level + 1)}[]`;
      return format && type === "string" ? `string (${format})` : type;
    })
    .join(" | ");
}

const constraintKeys = [
  ["minimum", "≥"],
  ["exclusiveMinimum", ">"],
  ["maximum", "≤"],
  ["exclusiveMaximum", "<"],
  ["minLength", "min length"],
  ["maxLength", "max length"],
  ["minItems", "min items"],
  ["maxItems", "max items"],
  ["pattern", "pattern"],
] as const;

function constraintsOf(schema: Record<string, unknown>): string[] {
  return constraintKeys.flatMap(([key, label]) => {
    const value = schema[key];
    // zod (which many servers use) writes an integer's ±9007199254740991 limits into every
    // schema: a JavaScript number's limits, not the tool's, and noise in a table.
    if (typeof value === "number" && Math.abs(value) >= Number.MAX_SAFE_INTEGER) return [];
    return typeof value === "number" || typeof value === "string" ? [`${label} ${value}`] : [];
  });
}

function literal(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
