import "server-only";
import { and, eq } from "drizzle-orm";
import { replicas, serverReplicaStatus } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { replicaIsLive } from "@/lib/runtime/replica";
import type { ConnectionState } from "@/lib/upstream/pool-events";
import type { ReplicaStatusRow } from "./replica-state";

/**
 * Each replica's connection state of each server: written by the replica's runtime beside
 * server_status (which stays, last writer wins, for the release before this one), read with the
 * replicas' heartbeats so lib/servers/replica-state.ts can decide what the server's state is.
 */

// The column's values and the pool's states are one list, spelled out twice (db/ imports no lib/).
type StoredState = typeof serverReplicaStatus.$inferSelect.state;
const sameStates: [StoredState] extends [ConnectionState]
  ? [ConnectionState] extends [StoredState]
    ? true
    : false
  : false = true;
void sameStates;

export async function saveReplicaStatus(
  db: Database,
  params: {
    serverId: string;
    tenantId: string;
    replicaId: string;
    state: ConnectionState;
    error: string | undefined;
    at: Date;
  },
): Promise<void> {
  const row = {
    state: params.state,
    updatedAt: params.at,
    // Like server_status: the last error stays until another one (the page shows the last error).
    ...(params.error ? { lastError: params.error, lastErrorAt: params.at } : {}),
  };
  await db
    .insert(serverReplicaStatus)
    .values({ serverId: params.serverId, tenantId: params.tenantId, replicaId: params.replicaId, ...row })
    .onConflictDoUpdate({ target: [serverReplicaStatus.serverId, serverReplicaStatus.replicaId], set: row });
}

export type ReplicaStatusRead = {
  /** per server id: the rows of replicas still on record (a stopped replica's are left out) */
  rowsByServer: Map<string, ReplicaStatusRow[]>;
  liveReplicaIds: string[];
};

/** The workspace's per-replica rows (of one server, or all), and which replicas are live. */
export async function readReplicaStatus(
  db: Database,
  params: { tenantId: string; serverId?: string },
): Promise<ReplicaStatusRead> {
  const [rows, live] = await Promise.all([
    db
      .select({
        serverId: serverReplicaStatus.serverId,
        replicaId: serverReplicaStatus.replicaId,
        state: serverReplicaStatus.state,
        lastError: serverReplicaStatus.lastError,
        updatedAt: serverReplicaStatus.updatedAt,
        live: replicaIsLive(),
      })
      .from(serverReplicaStatus)
      // Inner: a replica without a row stopped (its row goes at SIGTERM) or was forgotten.
      .innerJoin(replicas, eq(replicas.id, serverReplicaStatus.replicaId))
      .where(
        and(
          eq(serverReplicaStatus.tenantId, params.tenantId),
          params.serverId ? eq(serverReplicaStatus.serverId, params.serverId) : undefined,
        ),
      ),
    db.select({ id: replicas.id }).from(replicas).where(replicaIsLive()),
  ]);
  const rowsByServer = new Map<string, ReplicaStatusRow[]>();
  for (const { serverId, ...row } of rows) {
    const list = rowsByServer.get(serverId) ?? [];
    list.push(row);
    rowsByServer.set(serverId, list);
  }
  return { rowsByServer, liveReplicaIds: live.map((replica) => replica.id) };
}
