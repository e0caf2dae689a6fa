import "server-only";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { and, eq, sql } from "drizzle-orm";
import { type ServerOAuth, serverOAuth } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { openValue, sealValue } from "@/lib/secrets/secrets";
import type { OAuthProblem, OAuthStatus, RegistrationKind } from "./types";

/**
 * The one place a server's OAuth client information and tokens are read and written. Both are
 * sealed with the secrets key, bound to the server's id and purpose; what leaves this module for
 * a route is OAuthStatus, which holds neither.
 */

export type OAuthServerRef = { id: string; tenantId: string };

/** Tokens as stored: what the token endpoint answered, and the authorization server that issued them. */
export type StoredTokens = OAuthTokens & { issuer?: string };

export type LoadedOAuth = {
  row: ServerOAuth | undefined;
  clientInformation: OAuthClientInformationMixed | undefined;
  tokens: StoredTokens | undefined;
};

const purpose = (server: OAuthServerRef, what: "tokens" | "client") =>
  `${server.tenantId}/oauth/${server.id}/${what}`;

const openJson = <T>(ciphertext: string | null, associatedData: string): T | undefined =>
  ciphertext ? (JSON.parse(openValue(ciphertext, associatedData)) as T) : undefined;

export async function loadOAuth(db: Queryable, server: OAuthServerRef): Promise<LoadedOAuth> {
  const [row] = await db.select().from(serverOAuth).where(eq(serverOAuth.serverId, server.id));
  return fromRow(server, row);
}

/** The row locked for the rest of the transaction: one refresh at a time across processes. */
export async function loadOAuthForUpdate(db: Queryable, server: OAuthServerRef): Promise<LoadedOAuth> {
  const [row] = await db.select().from(serverOAuth).where(eq(serverOAuth.serverId, server.id)).for("update");
  return fromRow(server, row);
}

function fromRow(server: OAuthServerRef, row: ServerOAuth | undefined): LoadedOAuth {
  return {
    row,
    clientInformation: openJson(row?.clientInformation ?? null, purpose(server, "client")),
    tokens: openJson(row?.tokens ?? null, purpose(server, "tokens")),
  };
}

type OAuthFields = Partial<typeof serverOAuth.$inferInsert>;

/** `onInsert` overrides what a first row gets where `set` refers to the row's old values. */
async function upsert(db: Queryable, server: OAuthServerRef, set: OAuthFields, onInsert: OAuthFields = {}) {
  await db
    .insert(serverOAuth)
    .values({ serverId: server.id, tenantId: server.tenantId, ...set, ...onInsert })
    .onConflictDoUpdate({ target: serverOAuth.serverId, set: { ...set, updatedAt: sql`now()` } });
}

export async function saveClientInformation(
  db: Queryable,
  server: OAuthServerRef,
  information: OAuthClientInformationMixed,
  registration: RegistrationKind,
): Promise<void> {
  await upsert(db, server, {
    clientInformation: sealValue(JSON.stringify(information), purpose(server, "client")),
    registration,
  });
}

export async function clearClientInformation(db: Queryable, server: OAuthServerRef): Promise<void> {
  await upsert(db, server, { clientInformation: null, registration: null });
}

export async function saveDiscovery(
  db: Queryable,
  server: OAuthServerRef,
  discovery: Record<string, unknown> | null,
): Promise<void> {
  const issuer =
    typeof discovery?.authorizationServerUrl === "string" ? discovery.authorizationServerUrl : null;
  await upsert(db, server, { discovery, ...(issuer ? { issuer } : {}) });
}

/** New tokens: the server is connected; the version moves on so stale readers don't drop them. */
export async function saveTokens(
  db: Queryable,
  server: OAuthServerRef,
  tokens: StoredTokens,
  options: { now: Date; connectedBy?: string },
): Promise<void> {
  const expiresAt =
    typeof tokens.expires_in === "number" ? new Date(options.now.getTime() + tokens.expires_in * 1000) : null;
  await upsert(
    db,
    server,
    {
      status: "connected",
      tokens: sealValue(JSON.stringify(tokens), purpose(server, "tokens")),
      tokenVersion: sql`${serverOAuth.tokenVersion} + 1` as unknown as number,
      accessTokenExpiresAt: expiresAt,
      ...(tokens.scope !== undefined ? { scope: tokens.scope } : {}),
      neededScope: null,
      problem: null,
      ...(options.connectedBy ? { connectedBy: options.connectedBy, connectedAt: options.now } : {}),
    },
    { tokenVersion: 1 },
  );
}

/**
 * The tokens no longer work (refresh refused, grant revoked): they are dropped and the server
 * needs a person to authorize again — unless another process saved newer ones meanwhile
 * (`ifVersion`), which are kept. Returns whether anything changed.
 */
export async function dropTokens(
  db: Queryable,
  server: OAuthServerRef,
  options: { ifVersion?: number; problem?: OAuthProblem; neededScope?: string },
): Promise<boolean> {
  const dropped = await db
    .update(serverOAuth)
    .set({
      status: "needs_authorization",
      tokens: null,
      accessTokenExpiresAt: null,
      updatedAt: sql`now()`,
      ...(options.problem ? { problem: options.problem } : {}),
      ...(options.neededScope ? { neededScope: options.neededScope } : {}),
    })
    .where(
      and(
        eq(serverOAuth.serverId, server.id),
        options.ifVersion === undefined ? undefined : eq(serverOAuth.tokenVersion, options.ifVersion),
      ),
    )
    .returning({ serverId: serverOAuth.serverId });
  return dropped.length > 0;
}

/** Disconnect: tokens gone, and the server is not waiting for anyone until an admin connects it. */
export async function forgetTokens(db: Queryable, server: OAuthServerRef): Promise<void> {
  await upsert(db, server, {
    status: "not_connected",
    tokens: null,
    accessTokenExpiresAt: null,
    scope: null,
    neededScope: null,
    problem: null,
    connectedBy: null,
    connectedAt: null,
  });
}

export async function recordProblem(
  db: Queryable,
  server: OAuthServerRef,
  problem: OAuthProblem,
  extra: { neededScope?: string } = {},
): Promise<void> {
  await upsert(db, server, { problem, ...extra });
}

/** What a route may show: never a token, a secret or a code. */
export function statusOf(row: ServerOAuth | undefined): OAuthStatus {
  return {
    status: row?.status ?? "not_connected",
    registration: row?.registration ?? null,
    issuer: row?.issuer ?? null,
    scopes: row?.scope ? row.scope.split(" ").filter(Boolean) : [],
    neededScope: row?.neededScope ?? null,
    expiresAt: row?.accessTokenExpiresAt?.toISOString() ?? null,
    connectedAt: row?.connectedAt?.toISOString() ?? null,
    connectedBy: row?.connectedBy ?? null,
    problem: (row?.problem as OAuthProblem | null | undefined) ?? null,
  };
}
