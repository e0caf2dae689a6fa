import type { FieldErrors } from "@/lib/errors";
import type { ServerDto } from "@/lib/servers/types";
import {
  fromValueView,
  type KeyValueRow,
  toConfigRecord,
  toConfigValue,
  type ValueKind,
} from "./key-value-editor";

/**
 * The server form's state, as the person typed it (numbers as text, arguments one per line), and
 * its translation to the request shape of POST /api/v1/servers. The server validates; this only
 * translates.
 */

export type Transport = ServerDto["transport"];
export type AuthType = "none" | "bearer" | "api_key" | "custom_header" | "oauth";

export type FormState = {
  name: string;
  displayName: string;
  description: string;
  transport: Transport;
  command: string;
  args: string;
  cwd: string;
  env: KeyValueRow[];
  url: string;
  headers: KeyValueRow[];
  authType: AuthType;
  authHeaderName: string;
  authKind: ValueKind;
  authValue: string;
  /** OAuth: all optional; empty means Switchboard registers itself */
  oauthClientId: string;
  /** the name of the workspace secret holding the client secret */
  oauthClientSecret: string;
  /** space separated, as OAuth writes them */
  oauthScopes: string;
  enabled: boolean;
  connectTimeoutMs: string;
  callTimeoutMs: string;
  healthIntervalSeconds: string;
  resourceReadsNeedApproval: boolean;
};

export type SetField = <K extends keyof FormState>(key: K, value: FormState[K]) => void;

/** What every section of the form gets: the state, a setter, and the server's field errors. */
export type SectionProps = { state: FormState; set: SetField; errors: FieldErrors };

export function initialState(server?: ServerDto): FormState {
  const rows = (record: Record<string, unknown> = {}) =>
    Object.entries(record).map(([key, value]) => ({ id: crypto.randomUUID(), key, ...fromValueView(value) }));
  const credential = fromValueView(server?.auth.credential ?? { secret: "" });
  const clientSecret = server?.auth.clientSecret;
  return {
    name: server?.name ?? "",
    displayName: server?.displayName ?? "",
    description: server?.description ?? "",
    transport: server?.transport ?? "stdio",
    command: server?.command ?? "",
    args: (server?.args ?? []).join("\n"),
    cwd: server?.cwd ?? "",
    env: rows(server?.env),
    url: server?.url ?? "",
    headers: rows(server?.headers),
    authType: server?.auth.type ?? "none",
    authHeaderName: server?.auth.headerName ?? "",
    authKind: credential.kind,
    authValue: credential.value,
    oauthClientId: server?.auth.clientId ?? "",
    oauthClientSecret:
      clientSecret && typeof clientSecret === "object" && "secret" in clientSecret ? clientSecret.secret : "",
    oauthScopes: (server?.auth.scopes ?? []).join(" "),
    enabled: server?.enabled ?? true,
    connectTimeoutMs: String(server?.connectTimeoutMs ?? 10_000),
    callTimeoutMs: String(server?.callTimeoutMs ?? 30_000),
    healthIntervalSeconds: String(server?.healthIntervalSeconds ?? 60),
    resourceReadsNeedApproval: server?.resourceReadsNeedApproval ?? false,
  };
}

/** The form's state in the request shape of POST /api/v1/servers; the server validates it. */
export function toConfig(s: FormState): Record<string, unknown> {
  const number = (v: string) => (v.trim() === "" ? undefined : Number(v));
  const common = {
    name: s.name.trim(),
    displayName: s.displayName,
    description: s.description,
    transport: s.transport,
    enabled: s.enabled,
    connectTimeoutMs: number(s.connectTimeoutMs),
    callTimeoutMs: number(s.callTimeoutMs),
    healthIntervalSeconds: number(s.healthIntervalSeconds),
    resourceReadsNeedApproval: s.resourceReadsNeedApproval,
  };
  if (s.transport === "stdio") {
    const args = s.args.split("\n").filter((a) => a.trim() !== "");
    return { ...common, command: s.command, args, cwd: s.cwd, env: toConfigRecord(s.env) };
  }
  return { ...common, url: s.url, headers: toConfigRecord(s.headers), auth: toAuthConfig(s) };
}

function toAuthConfig(s: FormState): Record<string, unknown> {
  const credential = toConfigValue({ kind: s.authKind, value: s.authValue });
  switch (s.authType) {
    case "none":
      return { type: "none" };
    case "bearer":
      return { type: "bearer", credential };
    case "api_key":
    case "custom_header":
      return { type: s.authType, headerName: s.authHeaderName.trim() || undefined, credential };
    case "oauth": {
      const scopes = s.oauthScopes.split(/\s+/).filter((scope) => scope !== "");
      return {
        type: "oauth",
        ...(s.oauthClientId.trim() ? { clientId: s.oauthClientId.trim() } : {}),
        ...(s.oauthClientSecret.trim() ? { clientSecret: { secret: s.oauthClientSecret.trim() } } : {}),
        ...(scopes.length > 0 ? { scopes } : {}),
      };
    }
  }
}
