import { parseCookie } from "cookie";
import { eq } from "drizzle-orm";
import { type ApiKeyScope, type Role, type Tenant, tenants } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { decisionCache } from "@/lib/policy/decision-cache";
import { findMembership, listMemberships } from "@/lib/tenancy/workspaces";
import { verifyApiKey } from "./api-keys";
import type { AuditActor } from "./audit";
import { getAuth } from "./better-auth";
import { type Authority, isInstanceOwner } from "./instance-owners";
import { keyRefusal, loadCreator, standingOf } from "./key-standing";

export const WORKSPACE_COOKIE = "switchboard_workspace";

/** Who is calling, in which workspace, with which role. Built once per request from its headers. */
export type Actor = (
  | { kind: "operator"; userId: string; name: string; email: string; tenant: Tenant; role: Role }
  | {
      kind: "api_key";
      keyId: string;
      keyName: string;
      tenant: Tenant;
      /** what the key may do now: its scopes ∩ its creator's current standing (lib/auth/key-standing) */
      scopes: ApiKeyScope[];
      principalId: string | null;
      /** the person the key acts for (its creator); null for the machine's bootstrap key */
      personId: string | null;
      /** admin-scoped keys act as admins on the REST API; gateway-only keys have no REST role. */
      role: Role | null;
    }
) & {
  /** Holds instance authority now (lib/auth/instance-owners): a person who is an owner, or an owner key. */
  instanceOwner: boolean;
};

export const actorId = (actor: Actor) => (actor.kind === "operator" ? actor.userId : actor.keyId);

export const auditActorOf = (actor: Actor): AuditActor =>
  actor.kind === "operator"
    ? { kind: "operator", id: actor.userId, name: actor.name }
    : { kind: "api_key", id: actor.keyId, name: actor.keyName, personId: actor.personId };

export const authorityOf = (actor: Actor): Authority => ({
  by: auditActorOf(actor),
  instanceOwner: actor.instanceOwner,
});

/** An API key (Authorization: Bearer or X-API-Key) when one is sent, else the session cookie. */
export async function resolveActor(db: Database, headers: Headers): Promise<Actor> {
  const key = readApiKey(headers);
  if (key !== undefined) return actorFromKey(db, key);
  return resolveOperator(db, headers);
}

export async function resolveOperator(db: Database, headers: Headers): Promise<Actor & { kind: "operator" }> {
  const session = await getAuth(db).api.getSession({ headers });
  if (!session) throw new AppError("unauthenticated", "Sign in to continue (your session may have expired).");
  const { user } = session;
  const chosen = readCookie(headers, WORKSPACE_COOKIE);
  // A workspace cookie naming a workspace the operator is not in grants nothing: fall back to their first.
  const membership =
    (chosen ? await findMembership(db, { userId: user.id, tenantId: chosen }) : undefined) ??
    (await listMemberships(db, { userId: user.id }))[0];
  if (!membership) {
    throw new AppError(
      "forbidden",
      "You are not a member of any workspace. Ask an admin for an invitation link.",
    );
  }
  return {
    kind: "operator",
    userId: user.id,
    name: user.name,
    email: user.email,
    ...membership,
    instanceOwner: await isInstanceOwner(db, user.id),
  };
}

/**
 * A key acts with at most its creator's current rights, read on every request (not cached): a
 * demotion or removal takes effect on the key's next request, in every process.
 */
async function actorFromKey(db: Database, value: string): Promise<Actor> {
  const key = await verifyApiKey(db, value);
  const creator =
    key.principalId === null && key.createdBy !== null
      ? await loadCreator(db, { tenantId: key.tenantId, userId: key.createdBy })
      : { creatorName: null, creatorRole: null, creatorIsOwner: false };
  const standing = standingOf({ ...key, ...creator });
  if (standing.kind === "inactive") throw keyRefusal(standing);
  const tenant = await decisionCache.get(key.tenantId, "tenant", async () => {
    const [row] = await db.select().from(tenants).where(eq(tenants.id, key.tenantId));
    if (!row) throw new AppError("unauthenticated", "The API key's workspace no longer exists.");
    return row;
  });
  return {
    kind: "api_key",
    keyId: key.id,
    keyName: key.name,
    tenant,
    scopes: standing.scopes,
    principalId: key.principalId,
    personId: key.createdBy,
    role: standing.scopes.includes("admin") ? "admin" : null,
    // An owner key acts as an owner while the person who made it is one; the bootstrap key (made by
    // whoever configured the machine) always does.
    instanceOwner: standing.scopes.includes("owner"),
  };
}

/** undefined = no key sent; a malformed header is an error, never silently ignored. */
function readApiKey(headers: Headers): string | undefined {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) {
      throw new AppError(
        "unauthenticated",
        "Malformed Authorization header: send `Authorization: Bearer <api key>`.",
      );
    }
    return match[1];
  }
  const apiKey = headers.get("x-api-key");
  if (apiKey !== null) {
    if (!apiKey.trim()) throw new AppError("unauthenticated", "The X-API-Key header is empty.");
    return apiKey.trim();
  }
  return undefined;
}

/** `cookie` keeps a value it cannot percent-decode as sent (%E0): it then names no workspace, never a 500. */
function readCookie(headers: Headers, name: string): string | undefined {
  return parseCookie(headers.get("cookie") ?? "")[name];
}
