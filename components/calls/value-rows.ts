/**
 * Any JSON value (tool arguments, structured results, event details) flattened into rows for a
 * key/value table: nested objects and arrays become indented child rows. The values come from
 * callers and remote servers, so the work is bounded and nothing is ever interpreted as markup.
 */

export type ValueKind = "object" | "array" | "string" | "number" | "boolean" | "null" | "redacted" | "other";
export type ValueRow = { path: string; name: string; depth: number; kind: ValueKind; text: string };

/** What the scrubber leaves where a secret value was (lib/calls/scrub). */
export const REDACTED = "[redacted]";

const MAX_DEPTH = 8;
const MAX_ROWS = 500;

export function toValueRows(value: Record<string, unknown> | unknown[]): {
  rows: ValueRow[];
  isCut: boolean;
} {
  const rows: ValueRow[] = [];
  const isCut = !visit(value, 0, "", rows);
  return { rows, isCut };
}

/** false once the row budget is spent */
function visit(
  container: Record<string, unknown> | unknown[],
  depth: number,
  prefix: string,
  rows: ValueRow[],
) {
  const entries = Array.isArray(container)
    ? container.map((item, index) => [`[${index}]`, item] as const)
    : Object.entries(container);
  for (const [name, value] of entries) {
    if (rows.length >= MAX_ROWS) return false;
    const path = `${prefix}${name}`;
    const kind = kindOf(value);
    rows.push({ path, name, depth, kind, text: textOf(value, kind) });
    const isContainer = (kind === "object" || kind === "array") && depth < MAX_DEPTH;
    if (isContainer && !visit(value as Record<string, unknown> | unknown[], depth + 1, `${path}.`, rows)) {
      return false;
    }
  }
  return true;
}

function kindOf(value: unknown): ValueKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value === REDACTED) return "redacted";
  switch (typeof value) {
    case "object":
      return "object";
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    default:
      return "other";
  }
}

function textOf(value: unknown, kind: ValueKind): string {
  switch (kind) {
    case "object": {
      const count = Object.keys(value as object).length;
      return count === 0 ? "empty object" : `object · ${count} ${count === 1 ? "key" : "keys"}`;
    }
    case "array": {
      const count = (value as unknown[]).length;
      return count === 0 ? "empty list" : `list · ${count} ${count === 1 ? "item" : "items"}`;
    }
    case "string":
    case "redacted":
      return value as string;
    case "null":
      return "null";
    default:
      return String(value);
  }
}
