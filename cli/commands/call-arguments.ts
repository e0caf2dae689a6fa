import type { ApiClient } from "../api-client";
import { usageError } from "../errors";
import { listTools } from "./tool-pages";

type PropertySchema = { type?: string | string[] };

/**
 * `--arg name=value` → typed arguments. The tool's input schema says what each value is (a
 * string "42" stays a string where the tool expects text); without a schema, JSON-looking values
 * (numbers, true/false, objects) are parsed and the rest stay text.
 */
export async function coerceArguments(
  client: ApiClient,
  tool: string,
  pairs: Array<[string, string]>,
): Promise<Record<string, unknown>> {
  const properties = await readProperties(client, tool);
  return Object.fromEntries(pairs.map(([name, value]) => [name, coerce(name, value, properties[name])]));
}

async function readProperties(client: ApiClient, tool: string): Promise<Record<string, PropertySchema>> {
  try {
    // The search narrows to tools whose names contain it; the exact name is picked from those.
    const tools = await listTools(client, { q: tool });
    const schema = tools.find((t) => t.gatewayName === tool)?.definition?.inputSchema as
      | { properties?: Record<string, PropertySchema> }
      | undefined;
    return schema?.properties ?? {};
  } catch {
    // Typing is a convenience: the call itself reports a missing tool or bad arguments.
    return {};
  }
}

function coerce(name: string, value: string, schema: PropertySchema | undefined): unknown {
  const types = schema?.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("string")) return value;
  if (types.length === 0) return looksLikeJson(value) ? JSON.parse(value) : value;
  try {
    return JSON.parse(value);
  } catch {
    throw usageError(`--arg ${name} must be ${types.join(" or ")} (JSON), got "${value}".`);
  }
}

function looksLikeJson(value: string): boolean {
  if (!/^(?:[[{]|-?\d|true$|false$|null$)/.test(value.trim())) return false;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}
