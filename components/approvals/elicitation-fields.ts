/**
 * The form of a server's question, read from its requestedSchema: MCP keeps it to a flat object of
 * text, number, whole-number, true/false and choice fields. Anything else is shown as text; the
 * server's schema is checked again on the server when the answer is sent.
 */

export type ElicitationField = {
  name: string;
  label: string;
  description: string | null;
  required: boolean;
  kind: "text" | "number" | "integer" | "boolean" | "choice" | "choices";
  /** choice and choices: the values with their labels */
  options: Array<{ value: string; label: string }>;
  initial: string | boolean | string[];
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function fieldsOf(schema: Record<string, unknown>): ElicitationField[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  return Object.entries(properties).map(([name, raw]) => {
    const property = isRecord(raw) ? raw : {};
    const label = typeof property.title === "string" ? property.title : name;
    const description = typeof property.description === "string" ? property.description : null;
    const base = { name, label, description, required: required.includes(name) };
    const options = optionsOf(property);
    if (property.type === "array") {
      const items = isRecord(property.items) ? property.items : {};
      const initial = Array.isArray(property.default) ? property.default.map(String) : [];
      return { ...base, kind: "choices", options: optionsOf(items), initial };
    }
    if (options.length > 0) {
      return { ...base, kind: "choice", options, initial: stringOf(property.default) };
    }
    if (property.type === "boolean") {
      return { ...base, kind: "boolean", options, initial: property.default === true };
    }
    const kind = property.type === "number" || property.type === "integer" ? property.type : "text";
    return { ...base, kind, options, initial: stringOf(property.default) };
  });
}

function optionsOf(property: Record<string, unknown>): ElicitationField["options"] {
  const titled = Array.isArray(property.oneOf)
    ? property.oneOf
    : Array.isArray(property.anyOf)
      ? property.anyOf
      : [];
  if (titled.length > 0) {
    return titled.filter(isRecord).map((option) => ({
      value: String(option.const),
      label: typeof option.title === "string" ? option.title : String(option.const),
    }));
  }
  if (!Array.isArray(property.enum)) return [];
  const names = Array.isArray(property.enumNames) ? property.enumNames : [];
  return property.enum.map((value, index) => ({
    value: String(value),
    label: String(names[index] ?? value),
  }));
}

const stringOf = (value: unknown) => (value === undefined || value === null ? "" : String(value));

export type FormValues = Record<string, string | boolean | string[]>;

/** The values as the server's form wants them: numbers as numbers; empty optional fields left out. */
export function contentOf(fields: ElicitationField[], values: FormValues): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name] ?? field.initial;
    if (field.kind === "boolean") content[field.name] = value === true;
    else if (field.kind === "choices") {
      if (Array.isArray(value) && (value.length > 0 || field.required)) content[field.name] = value;
    } else if (typeof value === "string" && value.trim() !== "") {
      content[field.name] = field.kind === "number" || field.kind === "integer" ? Number(value) : value;
    }
  }
  return content;
}
