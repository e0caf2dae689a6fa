import { and, eq } from "drizzle-orm";
import { gatewaySessionOwners, replicas } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { replicaId, replicaIsLive } from "@/lib/runtime/replica";

/**
 * Which replica holds each open gateway session, in the database every replica shares, so a
 * request for a session that lands on another replica (a round-robin load balancer) is handed to
 * the one holding it (lib/gateway/http/hand-off). Written when a session opens, removed when it
 * closes; a replica's rows go with it when it stops, and are cleared when it starts again.
 */

export async function recordSessionOwner(
  db: Database,
  session: { id: string; principal: { tenantId: string; principalId: string } },
): Promise<void> {
  await db.insert(gatewaySessionOwners).values({
    sessionId: session.id,
    replicaId: replicaId(),
    tenantId: session.principal.tenantId,
    principalId: session.principal.principalId,
  });
}

/** The session is gone; `owner` limits it to that owner's row (a stale owner found unreachable). */
export async function forgetSessionOwner(db: Database, sessionId: string, owner = replicaId()) {
  await db
    .delete(gatewaySessionOwners)
    .where(and(eq(gatewaySessionOwners.sessionId, sessionId), eq(gatewaySessionOwners.replicaId, owner)));
}

export type SessionOwner = { replicaId: string; url: string };

/** The live replica holding the session, if any (a replica whose heartbeat is stale holds nothing). */
export async function sessionOwner(db: Database, sessionId: string): Promise<SessionOwner | undefined> {
  const [row] = await db
    .select({ replicaId: replicas.id, url: replicas.url })
    .from(gatewaySessionOwners)
    .innerJoin(replicas, eq(replicas.id, gatewaySessionOwners.replicaId))
    .where(and(eq(gatewaySessionOwners.sessionId, sessionId), replicaIsLive()));
  return row;
}
