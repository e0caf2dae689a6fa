import type { McpServer, StoredValue } from "@/db/schema/servers";
import { AppError } from "@/lib/errors";
import { isOwnSetting } from "@/lib/policy/stdio-environment";
import { REDACTED, scrubSecrets } from "./transport/stderr";

/** What the pool needs from an mcp_servers row: how to reach the server, and its limits. */
export type ConnectionConfig = Pick<
  McpServer,
  | "id"
  | "tenantId"
  | "name"
  | "transport"
  | "command"
  | "programPath"
  | "launchApprovedBy"
  | "args"
  | "cwd"
  | "env"
  | "url"
  | "headers"
  | "auth"
  | "enabled"
  | "connectTimeoutMs"
  | "callTimeoutMs"
  | "healthIntervalSeconds"
>;

/**
 * Turns a stored value into the string to use, at connect time only. Literals come back as they
 * are; `undefined` means the referenced secret or variable is not set.
 */
export type ValueResolver = (value: StoredValue, scope: { tenantId: string }) => Promise<string | undefined>;

/**
 * The usual resolver: literals as is, `fromEnv` from this process, `secret` through `readSecret`.
 * Switchboard's own settings are never handed out, whatever let the reference through.
 */
export function createValueResolver(options: {
  readSecret: (scope: { tenantId: string; name: string }) => Promise<string | undefined>;
  env?: Record<string, string | undefined>;
}): ValueResolver {
  const env = options.env ?? process.env;
  return async (value, { tenantId }) => {
    if (typeof value === "string") return value;
    if ("fromEnv" in value) return isOwnSetting(value.fromEnv) ? undefined : env[value.fromEnv] || undefined;
    return options.readSecret({ tenantId, name: value.secret });
  };
}

export type ResolvedConnection = {
  /** Environment variables configured for a stdio server (not the inherited base environment). */
  env: Record<string, string>;
  /** Extra headers plus the auth header for an HTTP server. */
  headers: Record<string, string>;
  /** The resolved values of every reference: scrubbed from stderr, errors and the command line. */
  secrets: string[];
};

/** Resolves every reference of a configuration; all missing ones are named in one error. */
export async function resolveConnection(
  config: ConnectionConfig,
  resolveValue: ValueResolver,
): Promise<ResolvedConnection> {
  const missing: string[] = [];
  const secrets: string[] = [];
  const resolveOne = async (value: StoredValue): Promise<string> => {
    const resolved = await resolveValue(value, { tenantId: config.tenantId });
    if (typeof value !== "string") {
      if (resolved === undefined) missing.push(describeReference(value));
      else secrets.push(resolved);
    }
    return resolved ?? "";
  };
  // One at a time, so the error names missing references in the order they were configured.
  const resolveRecord = async (record: Record<string, StoredValue>) => {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(record)) out[key] = await resolveOne(value);
    return out;
  };

  const env = config.transport === "stdio" ? await resolveRecord(config.env) : {};
  const headers = config.transport === "stdio" ? {} : await resolveRecord(config.headers);
  const auth = config.auth;
  if (config.transport !== "stdio") {
    if (auth.type === "bearer") headers.Authorization = `Bearer ${await resolveOne(auth.credential)}`;
    if (auth.type === "api_key" || auth.type === "custom_header") {
      headers[auth.headerName] = await resolveOne(auth.credential);
    }
    // OAuth: the transport sends the access token (lib/upstream/upstream-auth.ts), not a header here.
  }
  if (missing.length > 0) {
    throw new AppError("upstream_unavailable", `Cannot connect to "${config.name}": ${missing.join("; ")}.`);
  }
  return { env, headers, secrets };
}

function describeReference(value: Exclude<StoredValue, string>): string {
  return "fromEnv" in value
    ? `environment variable ${value.fromEnv} is not set`
    : `secret ${value.secret} is not set`;
}

/**
 * The spawn command as an operator would type it, for diagnostics: configured variables first
 * (references shown as [redacted]), arguments quoted where needed, resolved secrets scrubbed.
 */
export function formatCommandLine(config: ConnectionConfig, secrets: readonly string[]): string {
  const assignments = Object.entries(config.env).map(
    ([name, value]) => `${name}=${typeof value === "string" ? quote(value) : REDACTED}`,
  );
  const words = [...assignments, quote(config.command ?? ""), ...config.args.map(quote)];
  return scrubSecrets(words.join(" "), secrets);
}

function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The URL without query or fragment (either may carry a token), for messages and diagnostics. */
export function displayUrl(url: string | null): string {
  if (!url) return "(no URL)";
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/** The fields whose change requires a new connection (not the health interval, say). */
export function connectionIdentity(config: ConnectionConfig): string {
  const { transport, command, args, cwd, env, url, headers, auth, connectTimeoutMs } = config;
  return JSON.stringify({ transport, command, args, cwd, env, url, headers, auth, connectTimeoutMs });
}
