import "server-only";
import { hostname, networkInterfaces } from "node:os";
import { eq, lt, notExists, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { gatewaySessionOwners, replicas, serverReplicaStatus } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { isLoopbackAddress, listeningAddresses } from "@/lib/http/listening";
import { log } from "@/lib/observability/log";
import { processSingleton } from "@/lib/process-singleton";

/**
 * This process as one replica among those sharing a database: its id (shown in diagnostics,
 * events and health), the address other replicas reach it at, and a heartbeat row that says it is
 * alive. A replica whose heartbeat is older than REPLICA_STALE_SECONDS is taken for gone (a crash,
 * a lost network): its gateway sessions are not handed to it, and its status rows count as stale.
 */

export const HEARTBEAT_EVERY_MS = 5_000;
export const REPLICA_STALE_SECONDS = 20;
/** A replica gone this long is forgotten, with what it held. */
const FORGET_AFTER_SECONDS = 24 * 3600;

export type ReplicaIdentity = { id: string; url: string };

/** SWITCHBOARD_REPLICA_ID, else host name and port: what events, health and session records name. */
export function replicaId(): string {
  const { replica } = readEnv();
  return replica.id ?? `${hostname()}:${replica.port}`;
}

/**
 * Its id, and SWITCHBOARD_REPLICA_URL or the address it listens on (looked up from the network
 * interfaces: only the heartbeat needs it, never a request).
 */
export function thisReplica(): ReplicaIdentity {
  const { replica } = readEnv();
  return {
    id: replicaId(),
    url: (replica.url ?? `http://${urlHost(reachableAddress())}:${replica.port}`).replace(/\/$/, ""),
  };
}

/** SQL: the replica row's heartbeat is recent (REPLICA_STALE_SECONDS), so it counts as live. */
export const replicaIsLive = () =>
  sql<boolean>`${replicas.heartbeatAt} > now() - make_interval(secs => ${REPLICA_STALE_SECONDS})`;

/**
 * The address this process's sockets can be reached at from another machine: the bound address,
 * or for a wildcard bind (0.0.0.0, ::) the first external IPv4 address of this host; loopback when
 * it listens on loopback only (replicas are then on one machine) or nothing better is known.
 */
function reachableAddress(): string {
  const bound = listeningAddresses() ?? [];
  const specific = bound.find((address) => !isWildcard(address) && !isLoopbackAddress(address));
  if (specific) return specific;
  if (!bound.some(isWildcard)) return "127.0.0.1";
  for (const entries of Object.values(networkInterfaces())) {
    const external = entries?.find((entry) => entry.family === "IPv4" && !entry.internal);
    if (external) return external.address;
  }
  return "127.0.0.1";
}

const isWildcard = (address: string) => address === "0.0.0.0" || address === "::";
const urlHost = (address: string) => (address.includes(":") ? `[${address}]` : address);

type Heartbeat = { timer: NodeJS.Timeout | undefined; failing: boolean };
const heartbeat = processSingleton<Heartbeat>("ReplicaHeartbeat", () => ({
  timer: undefined,
  failing: false,
}));

/**
 * Writes this replica's row (the start of a run: its sessions of an earlier run are gone with that
 * run's memory) and keeps its heartbeat. Idempotent.
 */
export async function startReplicaHeartbeat(db: Database): Promise<void> {
  if (heartbeat.timer) return;
  const { id, url } = thisReplica();
  await db.transaction(async (tx) => {
    await tx
      .insert(replicas)
      .values({ id, url })
      .onConflictDoUpdate({
        target: replicas.id,
        set: { url, startedAt: sql`now()`, heartbeatAt: sql`now()` },
      });
    await tx.delete(gatewaySessionOwners).where(eq(gatewaySessionOwners.replicaId, id));
  });
  heartbeat.timer = setInterval(() => void beat(db, id, url), HEARTBEAT_EVERY_MS);
  heartbeat.timer.unref();
  log.info(`replica ${id} (reachable by other replicas at ${url})`);
}

async function beat(db: Database, id: string, url: string): Promise<void> {
  try {
    // An upsert: a row another replica forgot (this one was unreachable for a day) comes back.
    await db
      .insert(replicas)
      .values({ id, url })
      .onConflictDoUpdate({ target: replicas.id, set: { heartbeatAt: sql`now()` } });
    const forgotten = sql`now() - make_interval(secs => ${FORGET_AFTER_SECONDS})`;
    await db.delete(replicas).where(lt(replicas.heartbeatAt, forgotten));
    // What replicas without a row left: they stopped (their row went at SIGTERM) or were forgotten.
    await db.delete(gatewaySessionOwners).where(hasNoReplicaRow(gatewaySessionOwners.replicaId));
    await db.delete(serverReplicaStatus).where(hasNoReplicaRow(serverReplicaStatus.replicaId));
    if (heartbeat.failing) log.info(`replica ${id}: heartbeat written again`);
    heartbeat.failing = false;
  } catch (error) {
    if (!heartbeat.failing) log.warn({ err: error }, `replica ${id}: heartbeat not written (trying again)`);
    heartbeat.failing = true;
  }
}

const hasNoReplicaRow = (replicaId: AnyPgColumn) =>
  notExists(sql`(select 1 from ${replicas} where ${replicas.id} = ${replicaId})`);

/** A graceful stop: the row and the sessions it owned go, so no request is handed to it any more. */
export async function stopReplicaHeartbeat(db: Database): Promise<void> {
  clearInterval(heartbeat.timer);
  heartbeat.timer = undefined;
  const id = replicaId();
  await db.delete(gatewaySessionOwners).where(eq(gatewaySessionOwners.replicaId, id));
  await db.delete(replicas).where(eq(replicas.id, id));
}
