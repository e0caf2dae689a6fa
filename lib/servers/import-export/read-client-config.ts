import { AppError } from "@/lib/errors";
import { isRecord } from "@/lib/is-record";
import type { Transport } from "@/lib/servers/config-schema";
import {
  type ClientConfig,
  type ClientEntry,
  type ClientFormat,
  type ClientInput,
  formatLabels,
  type ImportFormat,
} from "./client-formats";

/**
 * A parsed client file → its entries, still in the client's terms. Problems with the file as a
 * whole (not an object, no server list, a format that does not fit) throw; problems with one entry
 * are recorded on that entry, so the others can still be imported.
 */
export function readClientConfig(value: unknown, format: ImportFormat = "auto"): ClientConfig {
  if (!isRecord(value)) throw invalid("The configuration must be a JSON object.");
  const servers = findServers(value);
  const detected = format === "auto" ? detectFormat(servers) : format;
  if (!servers) {
    throw invalid(
      format === "auto"
        ? 'No servers found: expected an "mcpServers" object (Claude Desktop, Claude Code, Cursor) or a "servers" object (VS Code).'
        : `No servers found: a ${formatLabels[format]} configuration has ${containerOf(format)}.`,
    );
  }
  if (detected === "vscode" ? servers.key === "mcpServers" : servers.key !== "mcpServers") {
    throw invalid(
      `This is not a ${formatLabels[detected]} configuration: it has "${servers.key}" where ${formatLabels[detected]} uses ${containerOf(detected)}. Use format "auto" to detect it.`,
    );
  }
  if (!isRecord(servers.value)) throw invalid(`"${servers.key}" must be an object of servers by name.`);
  return {
    format: detected,
    entries: Object.entries(servers.value).map(([source, raw]) => readEntry(source, raw)),
    inputs:
      detected === "vscode"
        ? readInputs(value.inputs ?? (isRecord(value.mcp) ? value.mcp.inputs : undefined))
        : [],
  };
}

type FoundServers = { key: "mcpServers" | "servers" | "mcp.servers"; value: unknown };

function findServers(root: Record<string, unknown>): FoundServers | undefined {
  if (root.mcpServers !== undefined) return { key: "mcpServers", value: root.mcpServers };
  if (root.servers !== undefined) return { key: "servers", value: root.servers };
  // A VS Code settings.json keeps them under "mcp".
  if (isRecord(root.mcp) && root.mcp.servers !== undefined)
    return { key: "mcp.servers", value: root.mcp.servers };
  return undefined;
}

/** The three `mcpServers` formats differ in what their entries may say, not in their container. */
function detectFormat(servers: FoundServers | undefined): ClientFormat {
  if (servers?.key !== "mcpServers") return "vscode";
  const entries = isRecord(servers.value) ? Object.values(servers.value).filter(isRecord) : [];
  if (entries.some((entry) => entry.type !== undefined)) return "claude-code";
  if (entries.some((entry) => entry.url !== undefined)) return "cursor";
  return "claude-desktop";
}

const containerOf = (format: ClientFormat) => (format === "vscode" ? '"servers"' : '"mcpServers"');

const transportOfType: Record<string, Transport> = {
  stdio: "stdio",
  http: "streamable-http",
  "streamable-http": "streamable-http",
  streamableHttp: "streamable-http",
  sse: "sse",
};

function readEntry(source: string, raw: unknown): ClientEntry {
  const entry: ClientEntry = {
    source,
    transport: null,
    command: null,
    args: [],
    cwd: null,
    env: {},
    url: null,
    headers: {},
    disabled: false,
    problems: [],
    warnings: [],
  };
  if (!isRecord(raw)) {
    entry.problems.push("The entry must be an object with a command or a url.");
    return entry;
  }
  entry.command = readString(raw, "command", entry);
  entry.url = readString(raw, "url", entry) ?? readString(raw, "serverUrl", entry);
  entry.cwd = readString(raw, "cwd", entry);
  entry.args = readStringList(raw.args, "args", entry);
  entry.env = readStringMap(raw.env, "env", entry);
  entry.headers = readStringMap(raw.headers, "headers", entry);
  entry.disabled = raw.disabled === true;
  const oauth = readOAuth(raw, entry);
  if (oauth) entry.oauth = oauth;
  if (raw.envFile !== undefined) {
    entry.warnings.push("envFile is not imported: add its variables to env (secrets move automatically).");
  }
  entry.transport = readTransport(raw.type, entry);
  return entry;
}

function readTransport(type: unknown, entry: ClientEntry): Transport | null {
  if (type !== undefined) {
    const transport = typeof type === "string" ? transportOfType[type] : undefined;
    if (!transport) {
      entry.problems.push(`Unknown type ${JSON.stringify(type)}: use stdio, http or sse.`);
      return null;
    }
    if (transport === "stdio" && !entry.command) entry.problems.push('type "stdio" needs a command.');
    if (transport !== "stdio" && !entry.url) entry.problems.push(`type "${type}" needs a url.`);
    return transport;
  }
  if (entry.command && entry.url) {
    entry.problems.push('The entry has both a command and a url: set "type" to say which to use.');
    return null;
  }
  if (entry.command) return "stdio";
  if (entry.url) return /\/sse\/?(?:[?#].*)?$/.test(entry.url) ? "sse" : "streamable-http";
  entry.problems.push("The entry has neither a command (stdio) nor a url (HTTP).");
  return null;
}

/**
 * Claude Code writes `"oauth": {"clientId": …, "scopes": "a b"}` (its client secret stays in the
 * system keychain); Cursor writes `"auth": {"CLIENT_ID": …, "CLIENT_SECRET": …, "scopes": [...]}`.
 */
function readOAuth(raw: Record<string, unknown>, entry: ClientEntry): ClientEntry["oauth"] {
  const source = isRecord(raw.oauth) ? raw.oauth : isRecord(raw.auth) ? raw.auth : undefined;
  if (!source) return undefined;
  const key = isRecord(raw.oauth) ? "oauth" : "auth";
  const text = (name: string) => {
    const value = source[name];
    if (value === undefined || value === null) return null;
    if (typeof value !== "string") {
      entry.warnings.push(`${key}.${name} is not a string and is not imported.`);
      return null;
    }
    return value.trim() === "" ? null : value;
  };
  const rawScopes = source.scopes;
  const scopes =
    typeof rawScopes === "string"
      ? rawScopes.split(/\s+/)
      : Array.isArray(rawScopes)
        ? rawScopes.filter((scope): scope is string => typeof scope === "string")
        : [];
  return {
    clientId: text("clientId") ?? text("CLIENT_ID"),
    clientSecret: text("clientSecret") ?? text("CLIENT_SECRET"),
    scopes: scopes.filter((scope) => scope !== ""),
  };
}

function readInputs(raw: unknown): ClientInput[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((input) =>
    typeof input.id === "string" && input.id !== ""
      ? [
          {
            id: input.id,
            description: typeof input.description === "string" ? input.description : null,
            password: input.password === true,
          },
        ]
      : [],
  );
}

function readString(raw: Record<string, unknown>, key: string, entry: ClientEntry): string | null {
  const value = raw[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") {
    entry.problems.push(`${key} must be a string.`);
    return null;
  }
  return value.trim() === "" ? null : value;
}

function readStringList(value: unknown, key: string, entry: ClientEntry): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    entry.problems.push(`${key} must be a list of strings.`);
    return [];
  }
  // Numbers in args are common ("--port", 8080) and mean their text; anything else is a mistake.
  return value.flatMap((item, index) => {
    if (typeof item === "string") return [item];
    if (typeof item === "number" || typeof item === "boolean") return [String(item)];
    entry.problems.push(`${key}[${index}] must be a string.`);
    return [];
  });
}

function readStringMap(value: unknown, key: string, entry: ClientEntry): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    entry.problems.push(`${key} must be an object of names to values.`);
    return {};
  }
  const result: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") {
      Object.defineProperty(result, name, {
        value: String(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else entry.problems.push(`${key}.${name} must be a string.`);
  }
  return result;
}

const invalid = (message: string) =>
  new AppError("validation", message, { fieldErrors: { config: [message] } });
