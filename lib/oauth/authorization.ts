import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { auth, type OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { type McpServer, mcpServers, oauthAuthorizations } from "@/db/schema";
import { type AuditActor, auditedBy, changedByOf, recordAudit } from "@/lib/auth/audit";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { openValue, readSecretValue, sealValue } from "@/lib/secrets/secrets";
import { createValueResolver } from "@/lib/upstream/connection-config";
import { oauthFetch } from "./oauth-fetch";
import { clearClientInformation, forgetTokens, loadOAuth, recordProblem, statusOf } from "./oauth-store";
import { AuthorizingProvider, type OAuthServer, type ProviderOptions } from "./stored-provider";
import type { OAuthProblem, OAuthStatus } from "./types";

/**
 * An admin's Connect, the authorization server's redirect back, and Disconnect. The browser part
 * is the operator's own: Switchboard hands out the authorization URL and takes the code at
 * /oauth/callback, where the `state` must be one it issued — for this server, to this person,
 * unused and at most AUTHORIZATION_TTL old.
 */

const AUTHORIZATION_TTL_MS = 10 * 60_000;

export type Starter = { userId: string | null; name: string; by: AuditActor };

export function asOAuthServer(row: McpServer): OAuthServer {
  if (row.transport === "stdio" || row.auth.type !== "oauth" || !row.url)
    throw new AppError(
      "conflict",
      `"${row.name}" does not use OAuth. Edit it and pick OAuth as its authentication to connect it this way.`,
    );
  return { id: row.id, tenantId: row.tenantId, name: row.name, url: row.url, auth: row.auth };
}

export function providerOptions(db: Database): ProviderOptions {
  const env = readEnv();
  return {
    publicUrl: env.publicUrl,
    now: () => new Date(),
    resolveValue: createValueResolver({ readSecret: (scope) => readSecretValue(db, scope) }),
    lockAcrossProcesses: env.databaseUrl !== undefined,
  };
}

const hashState = (state: string) => createHash("sha256").update(state).digest("base64url");
const verifierPurpose = (stateHash: string) => `oauth-verifier/${stateHash}`;

export async function getOAuthStatus(db: Database, row: McpServer): Promise<OAuthStatus> {
  const server = asOAuthServer(row);
  const { row: stored } = await loadOAuth(db, server);
  const status = statusOf(stored);
  return server.auth.clientId ? { ...status, registration: "manual" } : status;
}

/**
 * Discovery and registration happen here (so their failures reach the admin at once, naming the
 * step); the authorization URL comes back for the operator's browser.
 */
export async function startAuthorization(
  db: Database,
  row: McpServer,
  params: { scope?: string; starter: Starter },
): Promise<{ authorizationUrl: string }> {
  const server = asOAuthServer(row);
  const options = providerOptions(db);
  const state = randomBytes(32).toString("base64url");
  const provider = new AuthorizingProvider(db, server, options, { state, connectedBy: params.starter.name });
  const { row: stored, clientInformation } = await loadOAuth(db, server);
  const scope = params.scope ?? scopeToAsk(server, stored?.scope ?? null, stored?.neededScope ?? null);
  // A client registered for fewer scopes is held to them by most servers: register again.
  const registered = (clientInformation as { scope?: unknown } | undefined)?.scope;
  if (!server.auth.clientId && typeof registered === "string" && scope) {
    const has = new Set(registered.split(" "));
    if (scope.split(" ").some((wanted) => !has.has(wanted))) await clearClientInformation(db, server);
  }
  const traced = await oauthFetch(db, server.tenantId, options.now);
  try {
    const result = await auth(provider, { serverUrl: server.url, scope, fetchFn: traced.fetch });
    if (result !== "REDIRECT" || !provider.authorizationUrl)
      throw new AppError("upstream_error", "The authorization server issued tokens without asking anyone.");
    // The dashboard sends the operator's browser there: nothing but a web page (the SDK already
    // refuses javascript:, data: and vbscript:; an app's own scheme is no better).
    if (provider.authorizationUrl.protocol !== "https:" && provider.authorizationUrl.protocol !== "http:")
      throw new Error(
        `Incompatible auth server: its authorization endpoint is not a web address (${provider.authorizationUrl.protocol}), so no browser is sent there (metadata).`,
      );
    const stateHash = hashState(state);
    await db.insert(oauthAuthorizations).values({
      stateHash,
      tenantId: server.tenantId,
      serverId: server.id,
      userId: params.starter.userId,
      startedBy: params.starter.name,
      codeVerifier: sealValue(await provider.codeVerifier(), verifierPurpose(stateHash)),
      redirectUri: provider.redirectUrl,
      expiresAt: new Date(options.now().getTime() + AUTHORIZATION_TTL_MS),
    });
    // Old, unfinished authorizations are of no use to anyone.
    await db
      .delete(oauthAuthorizations)
      .where(lt(oauthAuthorizations.expiresAt, sql`now() - interval '1 day'`));
    return { authorizationUrl: provider.authorizationUrl.href };
  } catch (error) {
    throw await failed(db, server, traced.describe(error, "metadata"));
  } finally {
    await traced.close();
  }
}

/** The scopes a Connect asks for: what an admin configured, plus what the server said it needs. */
function scopeToAsk(server: OAuthServer, granted: string | null, needed: string | null): string | undefined {
  if (!needed) return server.auth.scopes?.length ? server.auth.scopes.join(" ") : undefined;
  const all = new Set([...(granted ?? "").split(" "), ...(server.auth.scopes ?? []), ...needed.split(" ")]);
  all.delete("");
  return [...all].join(" ");
}

export type CallbackOutcome = {
  serverName: string | null;
  ok: boolean;
  step?: OAuthProblem["step"];
  message?: string;
};

/**
 * GET /oauth/callback. A wrong, reused or expired `state`, or one started by another person,
 * changes nothing. A good one is spent before the code is exchanged, so it works once.
 */
export async function completeAuthorization(
  db: Database,
  params: {
    state: string | null;
    code: string | null;
    error: string | null;
    errorDescription: string | null;
    userId: string | null;
  },
): Promise<CallbackOutcome> {
  const refuse = (message: string): CallbackOutcome => ({
    serverName: null,
    ok: false,
    step: "authorization",
    message,
  });
  if (!params.state) return refuse("The authorization server's answer has no state.");
  const stateHash = hashState(params.state);
  const [pending] = await db
    .select()
    .from(oauthAuthorizations)
    .where(eq(oauthAuthorizations.stateHash, stateHash));
  if (!pending) return refuse("This authorization is unknown to Switchboard. Start again with Connect.");
  if (pending.usedAt) return refuse("This authorization was already used. Start again with Connect.");
  if (pending.expiresAt.getTime() < Date.now())
    return refuse("This authorization expired. Start again with Connect.");
  if (pending.userId !== null && pending.userId !== params.userId)
    return refuse(
      "This authorization was started by someone else. Sign in as that person, or start again with Connect.",
    );
  const spent = await db
    .update(oauthAuthorizations)
    .set({ usedAt: sql`now()` })
    .where(and(eq(oauthAuthorizations.stateHash, stateHash), isNull(oauthAuthorizations.usedAt)))
    .returning({ stateHash: oauthAuthorizations.stateHash });
  if (spent.length === 0) return refuse("This authorization was already used. Start again with Connect.");

  const [row] = await db.select().from(mcpServers).where(eq(mcpServers.id, pending.serverId));
  if (!row) return refuse("The server was deleted meanwhile.");
  const server = asOAuthServer(row);
  const options = providerOptions(db);
  const outcome = (problem: OAuthProblem): CallbackOutcome => ({
    serverName: server.name,
    ok: false,
    step: problem.step,
    message: problem.message,
  });
  if (params.error || !params.code) {
    const problem: OAuthProblem = {
      step: "authorization",
      status: null,
      message: `The authorization server did not authorize Switchboard: ${(params.error ?? "no code").slice(0, 100)}${params.errorDescription ? ` (${params.errorDescription.slice(0, 200)})` : ""}.`,
      at: options.now().toISOString(),
    };
    await recordProblem(db, server, problem);
    return outcome(problem);
  }
  const codeVerifier = openValue(pending.codeVerifier, verifierPurpose(stateHash));
  const provider = new AuthorizingProvider(db, server, options, {
    state: params.state,
    codeVerifier,
    connectedBy: pending.startedBy,
  });
  const traced = await oauthFetch(db, server.tenantId, options.now);
  try {
    await auth(provider, { serverUrl: server.url, authorizationCode: params.code, fetchFn: traced.fetch });
  } catch (error) {
    const problem = traced.describe(error, "token", [params.code, codeVerifier]);
    await recordProblem(db, server, problem);
    return outcome(problem);
  } finally {
    await traced.close();
  }
  // Who started the connect: the audit entry and the event name them alike.
  const by = {
    kind: pending.userId ? ("operator" as const) : ("api_key" as const),
    id: pending.userId,
    name: pending.startedBy,
  };
  await recordAudit(db, {
    tenantId: server.tenantId,
    action: "server.authorized",
    actorKind: by.kind,
    actorId: by.id,
    actorName: by.name,
    subject: server.name,
  });
  // Every process's runtime reconnects the server with the new tokens.
  await recordEvent(db, {
    tenantId: server.tenantId,
    event: { type: "server.authorized", serverId: server.id, serverName: server.name, by },
  });
  return { serverName: server.name, ok: true };
}

/** Tokens deleted here, and revoked at the server where it offers RFC 7009 (the SDK has no revoke). */
export async function disconnect(
  db: Database,
  row: McpServer,
  by: AuditActor,
): Promise<{ oauth: OAuthStatus; revoked: boolean }> {
  const server = asOAuthServer(row);
  const options = providerOptions(db);
  const loaded = await loadOAuth(db, server);
  let revoked = false;
  let revocationProblem: OAuthProblem | undefined;
  const discovery = (loaded.row?.discovery as OAuthDiscoveryState | null) ?? undefined;
  // RFC 8414 names it; OpenID provider metadata, the SDK's other shape, may carry it too.
  const metadata = discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined;
  const endpoint =
    typeof metadata?.revocation_endpoint === "string" ? metadata.revocation_endpoint : undefined;
  const client = await new AuthorizingProvider(db, server, options, { state: "", connectedBy: "" })
    .clientInformation()
    .catch(() => undefined);
  if (endpoint && loaded.tokens && client) {
    const traced = await oauthFetch(db, server.tenantId, options.now);
    try {
      // The refresh token first: revoking it ends the grant at most servers (RFC 7009 §2.1).
      const tokens: Array<[string, string]> = [
        ...(loaded.tokens.refresh_token
          ? [["refresh_token", loaded.tokens.refresh_token] as [string, string]]
          : []),
        ["access_token", loaded.tokens.access_token],
      ];
      for (const [hint, token] of tokens) {
        const body = new URLSearchParams({ token, token_type_hint: hint, client_id: client.client_id });
        const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
        const secret = "client_secret" in client ? client.client_secret : undefined;
        if (secret)
          headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
        const response = await traced.fetch(endpoint, { method: "POST", headers, body: body.toString() });
        await response.body?.cancel().catch(() => {});
        if (!response.ok) throw new Error(`the revocation endpoint answered HTTP ${response.status}`);
      }
      revoked = true;
    } catch (error) {
      // Deleted here all the same: what the server still holds expires on its own.
      revocationProblem = traced.describe(error, "revocation", [
        loaded.tokens.access_token,
        loaded.tokens.refresh_token ?? "",
      ]);
    } finally {
      await traced.close();
    }
  }
  await forgetTokens(db, server);
  if (revocationProblem) await recordProblem(db, server, revocationProblem);
  await recordAudit(db, {
    tenantId: server.tenantId,
    action: "server.deauthorized",
    ...auditedBy(by),
    subject: server.name,
    detail: revoked ? "revoked" : null,
  });
  await recordEvent(db, {
    tenantId: server.tenantId,
    event: { type: "server.deauthorized", serverId: server.id, serverName: server.name, by: changedByOf(by) },
  });
  return { oauth: await getOAuthStatus(db, row), revoked };
}

async function failed(db: Database, server: OAuthServer, problem: OAuthProblem): Promise<AppError> {
  await recordProblem(db, server, problem);
  return new AppError("upstream_error", problem.message);
}
