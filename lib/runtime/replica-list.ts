import "server-only";
import { replicas } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { replicaId, replicaIsLive } from "./replica";

/**
 * GET /api/v1/replicas: the Switchboard processes sharing this database, as any member may see them
 * (their ids are on every server's page anyway). Not their addresses: where replicas reach each
 * other inside the deployment is the operator's business, not a workspace member's.
 */

export type ReplicaDto = {
  id: string;
  startedAt: string;
  heartbeatAt: string;
  /** its heartbeat is recent (replicaIsLive); a crashed one stays listed as not live for a day */
  live: boolean;
};

export type ReplicaList = { self: string; replicas: ReplicaDto[] };

export async function listReplicas(db: Database): Promise<ReplicaList> {
  const rows = await db
    .select({
      id: replicas.id,
      startedAt: replicas.startedAt,
      heartbeatAt: replicas.heartbeatAt,
      live: replicaIsLive(),
    })
    .from(replicas)
    .orderBy(replicas.startedAt, replicas.id);
  return {
    self: replicaId(),
    replicas: rows.map((row) => ({
      id: row.id,
      startedAt: row.startedAt.toISOString(),
      heartbeatAt: row.heartbeatAt.toISOString(),
      live: row.live,
    })),
  };
}
