import { type Command, Option } from "commander";
import { collectPairs, contextOf, withJsonOption } from "../context";
import { usageError } from "../errors";
import { print, printJson } from "../output";
import type { ServerWire, ValueViewWire } from "../wire-types";

/**
 * `servers add`: a registration body from flags. References are spelled by the flag
 * (`--env-secret`, `--env-from`), never guessed from a value, so a literal is always a literal.
 */
export function registerServerAdd(servers: Command): void {
  withJsonOption(
    servers
      .command("add")
      .description("register a server: its command after -- (stdio), or its URL (HTTP)")
      .argument("<name>", "server name: lowercase letters, digits and dashes")
      .argument("[command...]", "stdio: the command and its arguments, after --; HTTP: the server's URL")
      .addOption(
        new Option("--transport <transport>", "HTTP transport")
          .choices(["streamable-http", "sse"])
          .default("streamable-http"),
      )
      .option("-e, --env <NAME=VALUE>", "environment variable (repeatable)", collectPairs)
      .option(
        "--env-secret <NAME=SECRET>",
        "environment variable from a stored secret (repeatable)",
        collectPairs,
      )
      .option(
        "--env-from <NAME=VAR>",
        "environment variable from Switchboard's own environment (repeatable)",
        collectPairs,
      )
      .option("--header <NAME=VALUE>", "HTTP header (repeatable)", collectPairs)
      .option("--header-secret <NAME=SECRET>", "HTTP header from a stored secret (repeatable)", collectPairs)
      .option("--bearer-secret <SECRET>", "HTTP: Authorization: Bearer from a stored secret")
      .option("--oauth", "HTTP: Switchboard signs in with OAuth (then: switchboard servers connect <name>)")
      .option(
        "--oauth-client-id <id>",
        "OAuth: a pre-registered client ID (default: Switchboard registers itself)",
      )
      .option("--oauth-client-secret <SECRET>", "OAuth: the client secret, from a stored secret")
      .option("--oauth-scopes <scopes>", 'OAuth: the scopes to ask for, space separated ("repo read:org")')
      .option("--cwd <dir>", "stdio: working directory")
      .option("--display-name <text>", "name shown in the dashboard")
      .option("--description <text>", "what the server is for")
      .option("--disabled", "register it without connecting")
      .option(
        "--config <json>",
        "the whole registration body (of POST /api/v1/servers) as JSON; other options are merged over it",
      ),
  ).action(async (name: string, commandLine: string[], options: AddOptions, command: Command) => {
    const { client, json } = contextOf(command);
    const body = buildRegistration(name, commandLine, options);
    const { server } = await client.post<{ server: ServerWire }>("/api/v1/servers", body);
    if (json) return printJson(server);
    print(`Registered ${server.name} (${server.transport}): ${server.target}`);
    const unset = [
      ...Object.values(server.env),
      ...Object.values(server.headers),
      server.auth.credential,
      server.auth.clientSecret,
    ].filter(
      (v): v is Extract<ValueViewWire, { secret: string }> =>
        typeof v === "object" && "secret" in v && !v.isSet,
    );
    for (const ref of unset)
      print(`Secret ${ref.secret} is not set yet: switchboard secrets set ${ref.secret}`);
    if (server.auth.type === "oauth")
      print(`It needs authorization: switchboard servers connect ${server.name}`);
  });
}

type Pairs = Array<[string, string]>;
type AddOptions = {
  transport: string;
  env?: Pairs;
  envSecret?: Pairs;
  envFrom?: Pairs;
  header?: Pairs;
  headerSecret?: Pairs;
  bearerSecret?: string;
  oauth?: boolean;
  oauthClientId?: string;
  oauthClientSecret?: string;
  oauthScopes?: string;
  cwd?: string;
  displayName?: string;
  description?: string;
  disabled?: boolean;
  config?: string;
};

function buildRegistration(
  name: string,
  commandLine: string[],
  options: AddOptions,
): Record<string, unknown> {
  const base = options.config ? parseConfigOption(options.config) : {};
  // An HTTP server is named by its URL, as in `claude mcp add`: `--url` is Switchboard's own URL
  // on every command (a program option), so it cannot also be the server's.
  const url =
    commandLine.length === 1 && /^https?:\/\//i.test(commandLine[0] ?? "") ? commandLine[0] : undefined;
  const [executable, ...args] = url ? [] : commandLine;
  const values = (literal?: Pairs, secret?: Pairs, fromEnv?: Pairs) =>
    Object.fromEntries([
      ...(literal ?? []),
      ...(secret ?? []).map(([k, v]) => [k, { secret: v }]),
      ...(fromEnv ?? []).map(([k, v]) => [k, { fromEnv: v }]),
    ]);
  const common = {
    ...base,
    name,
    ...(options.displayName ? { displayName: options.displayName } : {}),
    ...(options.description ? { description: options.description } : {}),
    ...(options.disabled ? { enabled: false } : {}),
  };
  if (executable) {
    return {
      ...common,
      transport: "stdio",
      command: executable,
      args,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: { ...(base.env as object), ...values(options.env, options.envSecret, options.envFrom) },
    };
  }
  if (url || base.url) {
    return {
      ...common,
      transport: base.transport && !url ? base.transport : options.transport,
      ...(url ? { url } : {}),
      headers: { ...(base.headers as object), ...values(options.header, options.headerSecret) },
      ...authOf(options),
    };
  }
  if (options.config) return common;
  throw usageError(
    "Say how to reach the server: its command after -- (stdio), or its URL (HTTP): switchboard servers add <name> https://…",
  );
}

function authOf(options: AddOptions): { auth?: Record<string, unknown> } {
  const isOAuth =
    options.oauth || options.oauthClientId || options.oauthClientSecret || options.oauthScopes !== undefined;
  if (isOAuth && options.bearerSecret) throw usageError("Use either --bearer-secret or --oauth, not both.");
  if (options.bearerSecret) return { auth: { type: "bearer", credential: { secret: options.bearerSecret } } };
  if (!isOAuth) return {};
  const scopes = (options.oauthScopes ?? "").split(/\s+/).filter((scope) => scope !== "");
  return {
    auth: {
      type: "oauth",
      ...(options.oauthClientId ? { clientId: options.oauthClientId } : {}),
      ...(options.oauthClientSecret ? { clientSecret: { secret: options.oauthClientSecret } } : {}),
      ...(scopes.length > 0 ? { scopes } : {}),
    },
  };
}

function parseConfigOption(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw usageError('--config must be a JSON object, e.g. \'{"transport":"stdio","command":"node"}\'.');
}
