import type { ClientEntry, ClientFormat, ClientInput } from "./client-formats";

/**
 * Entries → the file a client reads, the inverse of readClientConfig (round-trip tested with the
 * fixtures in tests/fixtures/client-configs). Entries with problems are left out.
 */
export function renderClientConfig(
  format: ClientFormat,
  params: { entries: ClientEntry[]; inputs?: ClientInput[] },
): Record<string, unknown> {
  const entries = params.entries.filter((entry) => entry.problems.length === 0 && entry.transport);
  const servers = Object.fromEntries(entries.map((entry) => [entry.source, renderEntry(format, entry)]));
  if (format !== "vscode") return { mcpServers: servers };
  const inputs = usedInputs(entries, params.inputs ?? []);
  return { ...(inputs.length > 0 ? { inputs: inputs.map(renderInput) } : {}), servers };
}

function renderEntry(format: ClientFormat, entry: ClientEntry): Record<string, unknown> {
  // Claude Desktop and Cursor infer the transport; Claude Code and VS Code want it said.
  const typed = format === "claude-code" || format === "vscode";
  const disabled = entry.disabled ? { disabled: true } : {};
  if (entry.transport === "stdio") {
    return {
      ...(typed ? { type: "stdio" } : {}),
      command: entry.command,
      args: entry.args,
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
      ...nonEmpty("env", entry.env),
      ...disabled,
    };
  }
  const type = entry.transport === "sse" ? "sse" : "http";
  return {
    ...(typed ? { type } : {}),
    url: entry.url,
    ...nonEmpty("headers", entry.headers),
    ...disabled,
  };
}

const nonEmpty = (key: string, record: Record<string, string>) =>
  Object.keys(record).length > 0 ? { [key]: record } : {};

/** VS Code must declare every `${input:id}` it meets; declare the ones the entries use. */
function usedInputs(entries: ClientEntry[], known: ClientInput[]): ClientInput[] {
  const text = JSON.stringify(entries.map((e) => [e.args, e.env, e.headers, e.url]));
  const ids = [...new Set([...text.matchAll(/\$\{input:([^}]+)\}/g)].map((m) => m[1] as string))];
  return ids.map((id) => known.find((input) => input.id === id) ?? { id, description: null, password: true });
}

function renderInput(input: ClientInput): Record<string, unknown> {
  return {
    type: "promptString",
    id: input.id,
    ...(input.description ? { description: input.description } : {}),
    password: input.password,
  };
}
