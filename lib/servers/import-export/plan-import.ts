import type { ConfigValue, Transport } from "@/lib/servers/config-schema";
import type { ClientConfig, ClientEntry } from "./client-formats";
import { isKnownOAuthHost } from "./oauth-hosts";
import {
  findCredentialArgs,
  looksLikeSecretName,
  readPlaceholder,
  SecretCollector,
  type SecretReference,
  type SecretWrite,
} from "./secret-hygiene";
import { slugifyServerName } from "./slug";

/**
 * What importing one client entry means for Switchboard, before any database is consulted: the
 * registration body (references only — secret values are in `secretWrites`, never in `config`)
 * and the secrets to store first. Pure, so every format's rules are unit-tested without a database.
 */
export type PlannedEntry = {
  source: string;
  name: string | null;
  transport: Transport | null;
  /** the connection part of a registration (command/args/cwd/env or url/headers/auth) plus name and transport */
  config: Record<string, unknown> | null;
  /** applied only when the server is new: an operator's later choices survive a re-import */
  createOnly: { displayName?: string; enabled?: boolean };
  secretWrites: SecretWrite[];
  secretReferences: SecretReference[];
  warnings: string[];
  /** why the entry cannot be imported; when non-empty, config is null */
  problems: string[];
};

export function planImport(client: ClientConfig): PlannedEntry[] {
  const seen = new Map<string, string>();
  return client.entries.map((entry) => {
    const plan = planEntry(entry);
    if (plan.name) {
      const earlier = seen.get(plan.name);
      if (earlier !== undefined) {
        return fail(plan, `"${entry.source}" and "${earlier}" both become the server name "${plan.name}".`);
      }
      seen.set(plan.name, entry.source);
    }
    return plan;
  });
}

function planEntry(entry: ClientEntry): PlannedEntry {
  const name = slugifyServerName(entry.source);
  const plan: PlannedEntry = {
    source: entry.source,
    name: name || null,
    transport: entry.transport,
    config: null,
    createOnly: {
      ...(name !== entry.source && entry.source.trim()
        ? { displayName: entry.source.trim().slice(0, 100) }
        : {}),
      ...(entry.disabled ? { enabled: false } : {}),
    },
    secretWrites: [],
    secretReferences: [],
    warnings: [...entry.warnings],
    problems: [...entry.problems],
  };
  if (!name) plan.problems.push("The name has no letters or digits to make a server name from.");
  if (plan.problems.length > 0 || !entry.transport) return plan;

  const secrets = new SecretCollector(name);
  plan.config =
    entry.transport === "stdio"
      ? {
          name,
          transport: "stdio",
          command: entry.command,
          args: entry.args,
          cwd: entry.cwd,
          env: convertAll(entry.env, "env", secrets),
        }
      : { name, transport: entry.transport, url: entry.url, ...convertHeaders(entry.headers, secrets) };
  if (entry.transport === "stdio") plan.warnings.push(...findCredentialArgs(entry.args));
  else if (plan.config.auth && (plan.config.auth as { type: string }).type === "none") {
    const oauth = planOAuth(entry, secrets);
    if (oauth) plan.config.auth = oauth;
  }
  plan.secretWrites = secrets.writes;
  plan.secretReferences = secrets.references;
  plan.warnings.push(...secrets.warnings);
  return plan;
}

function convertAll(values: Record<string, string>, field: string, secrets: SecretCollector) {
  // fromEntries defines own properties: a variable named __proto__ stays a plain key.
  return Object.fromEntries(
    Object.entries(values).map(([variable, value]): [string, ConfigValue] => [
      variable,
      secrets.convert(value, {
        field: `${field}.${variable}`,
        variable,
        isSecret: looksLikeSecretName(variable),
      }),
    ]),
  );
}

/** `Authorization: Bearer x` becomes bearer auth; every other credential header stays a header. */
function convertHeaders(headers: Record<string, string>, secrets: SecretCollector) {
  const others: Array<[string, string]> = [];
  let auth: Record<string, unknown> = { type: "none" };
  for (const [header, value] of Object.entries(headers)) {
    const bearer = /^bearer\s+(\S.*)$/i.exec(value.trim());
    if (header.toLowerCase() === "authorization" && bearer?.[1] && auth.type === "none") {
      const credential = secrets.convert(bearer[1], {
        field: `headers.${header}`,
        variable: header,
        isSecret: true,
      });
      auth = { type: "bearer", credential };
    } else others.push([header, value]);
  }
  return { headers: convertAll(Object.fromEntries(others), "headers", secrets), auth };
}

/** What an imported server that signs in with OAuth needs after the import, said once per entry. */
export const NEEDS_AUTHORIZATION =
  "Needs authorization: it signs in with OAuth. After importing, click Connect on its page.";

/**
 * OAuth when the entry says so, or when it points at a hosted server known to want it and carries
 * no credential header of its own (Authorization, or an API key such a server also takes). The client's tokens are not in the file and not wanted:
 * Switchboard signs in itself, once an admin clicks Connect.
 */
function planOAuth(entry: ClientEntry, secrets: SecretCollector): Record<string, unknown> | null {
  const hasCredential = Object.keys(entry.headers).some(looksLikeSecretName);
  if (hasCredential || (!entry.oauth && !isKnownOAuthHost(entry.url ?? ""))) return null;
  const stated = entry.oauth;
  let clientSecret: ConfigValue | null = null;
  if (stated?.clientSecret) {
    // Only a stored secret will do (the schema takes no literal and no environment variable).
    if (readPlaceholder(stated.clientSecret).kind === "env") {
      secrets.warnings.push(
        "The OAuth client secret came from the client's environment and is not imported: store it as a secret and name it on the server's Edit page.",
      );
    } else {
      clientSecret = secrets.convert(stated.clientSecret, {
        field: "auth.clientSecret",
        variable: "OAUTH_CLIENT_SECRET",
        isSecret: true,
      });
    }
  }
  secrets.warnings.push(NEEDS_AUTHORIZATION);
  return {
    type: "oauth",
    ...(stated?.clientId ? { clientId: stated.clientId } : {}),
    ...(clientSecret ? { clientSecret } : {}),
    ...(stated?.scopes.length ? { scopes: stated.scopes } : {}),
  };
}

function fail(plan: PlannedEntry, problem: string): PlannedEntry {
  return {
    ...plan,
    config: null,
    secretWrites: [],
    secretReferences: [],
    problems: [...plan.problems, problem],
  };
}
