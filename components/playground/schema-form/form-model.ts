import { isRecord, textOf } from "@/components/ui/format";

/**
 * A tool's input schema (JSON Schema from an untrusted server) reduced to what a form can offer.
 * Anything it cannot express — unions of objects, arrays of objects, maps, deep nesting — becomes
 * a JSON field, so every schema stays callable.
 */

export type Primitive = string | number | boolean | null;
export type PrimitiveKind =
  | { kind: "string"; isMultiline: boolean; format: string | null }
  | { kind: "number"; isInteger: boolean; min: number | null; max: number | null }
  | { kind: "boolean" }
  | { kind: "enum"; options: Primitive[] };
export type FieldKind =
  | PrimitiveKind
  | { kind: "array"; item: PrimitiveKind }
  | { kind: "object"; fields: FormField[] }
  | { kind: "json" };

export type FormField = {
  name: string;
  isRequired: boolean;
  description: string | null;
  defaultValue: unknown;
  type: FieldKind;
};

// Bounds on what a hostile or huge schema can make the browser do.
const MAX_DEPTH = 4;
const MAX_FIELDS = 200;

type Context = { root: Record<string, unknown>; count: number };

/** The fields of an object schema, in schema order; [] when it takes no arguments. */
export function toFormFields(schema: unknown): FormField[] {
  if (!isRecord(schema)) return [];
  return fieldsOf(schema, { root: schema, count: 0 }, 0);
}

/** Whether the form can show the schema at all: an object with named properties (or nothing). */
export function isFormable(schema: unknown): boolean {
  if (!isRecord(schema)) return schema === undefined;
  return schema.properties === undefined
    ? !isRecord(schema.additionalProperties)
    : isRecord(schema.properties);
}

function fieldsOf(schema: Record<string, unknown>, context: Context, depth: number): FormField[] {
  if (!isRecord(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields: FormField[] = [];
  for (const [name, raw] of Object.entries(schema.properties)) {
    if (++context.count > MAX_FIELDS) break;
    const property = resolve(raw, context.root);
    fields.push({
      name,
      isRequired: required.has(name),
      description: textOf(property.description) ?? textOf(property.title),
      defaultValue: property.default,
      type: kindOf(property, context, depth),
    });
  }
  return fields;
}

function kindOf(schema: Record<string, unknown>, context: Context, depth: number): FieldKind {
  const primitive = primitiveKindOf(schema, context.root);
  if (primitive) return primitive;
  const type = singleType(schema);
  if (type === "array" && isRecord(schema.items)) {
    const item = primitiveKindOf(resolve(schema.items, context.root), context.root);
    return item ? { kind: "array", item } : { kind: "json" };
  }
  const isObject = type === "object" || (type === null && isRecord(schema.properties));
  if (isObject && depth < MAX_DEPTH && isRecord(schema.properties)) {
    return { kind: "object", fields: fieldsOf(schema, context, depth + 1) };
  }
  return { kind: "json" };
}

function primitiveKindOf(
  schema: Record<string, unknown>,
  root: Record<string, unknown>,
): PrimitiveKind | null {
  const options = enumOptions(schema, root);
  if (options) return { kind: "enum", options };
  const nullable = nullableVariant(schema, root);
  if (nullable) return primitiveKindOf(nullable, root);
  switch (singleType(schema)) {
    case "string": {
      const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : null;
      const format = textOf(schema.format);
      // Free text (no format, no short limit) gets room to write; identifiers and dates stay one line.
      return {
        kind: "string",
        isMultiline: format === null && (maxLength === null || maxLength > 120),
        format,
      };
    }
    case "number":
    case "integer":
      return {
        kind: "number",
        isInteger: singleType(schema) === "integer",
        min: typeof schema.minimum === "number" ? schema.minimum : null,
        max: typeof schema.maximum === "number" ? schema.maximum : null,
      };
    case "boolean":
      return { kind: "boolean" };
    default:
      return null;
  }
}

/** `enum`, `const`, or a union whose every variant is a `const`. */
function enumOptions(schema: Record<string, unknown>, root: Record<string, unknown>): Primitive[] | null {
  const isPrimitive = (v: unknown): v is Primitive =>
    v === null || ["string", "number", "boolean"].includes(typeof v);
  if (Array.isArray(schema.enum) && schema.enum.every(isPrimitive)) return schema.enum.slice(0, 200);
  if (schema.const !== undefined) return isPrimitive(schema.const) ? [schema.const] : null;
  const variants = unionOf(schema)?.map((v) => resolve(v, root));
  if (variants?.length && variants.every((v) => v.const !== undefined && isPrimitive(v.const))) {
    return variants.map((v) => v.const as Primitive);
  }
  return null;
}

/** `{anyOf: [X, {type: "null"}]}` is X that may be left out. */
function nullableVariant(schema: Record<string, unknown>, root: Record<string, unknown>) {
  const variants = unionOf(schema)?.map((v) => resolve(v, root));
  const others = variants?.filter((v) => v.type !== "null");
  return variants && others?.length === 1 && variants.length === 2 ? (others[0] ?? null) : null;
}

const unionOf = (schema: Record<string, unknown>) =>
  Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;

/** "string", or the one non-null type of ["string", "null"]; null when absent or ambiguous. */
function singleType(schema: Record<string, unknown>): string | null {
  if (typeof schema.type === "string") return schema.type;
  if (!Array.isArray(schema.type)) return null;
  const types = schema.type.filter((t) => t !== "null");
  return types.length === 1 && typeof types[0] === "string" ? types[0] : null;
}

/** Follows one local `$ref` (`#/$defs/X`, `#/definitions/X`); anything else stays as it is. */
function resolve(raw: unknown, root: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(raw)) return {};
  const ref = textOf(raw.$ref);
  if (!ref?.startsWith("#/")) return raw;
  let target: unknown = root;
  for (const segment of ref.slice(2).split("/")) {
    target = isRecord(target) ? target[segment.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  }
  // Deeper refs are left unresolved on purpose: a recursive type becomes a JSON field.
  return isRecord(target) && !textOf(target.$ref) ? { ...target, ...raw, $ref: undefined } : raw;
}
