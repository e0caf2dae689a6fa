/**
 * One server's state when several replicas share the database. Every replica connects every enabled
 * server and records its own state (server_replica_status), so they can disagree: ready on two,
 * crash-looping on the third. What the API and the dashboard call the server's state is decided here,
 * once, from those rows (pure: lib/servers/replica-status.ts reads them).
 *
 * The rule, in order:
 *  1. A disabled server is "disabled", whatever a replica still says (its configuration decides).
 *  2. Otherwise the WORST state among the live replicas (heartbeat within REPLICA_STALE_SECONDS)
 *     that have recorded one: a server broken on one replica breaks one call in N there, so it is
 *     not shown as simply Ready. Worst first: needs-authorization (the OAuth tokens are shared, so one
 *     replica refused means an admin must Connect — the page's banner keys on it), crash-loop,
 *     disconnected, disabled (a replica that has not seen it enabled yet), degraded, connecting,
 *     ready. Connecting ranks below degraded: a replica starting during a rolling deploy should not
 *     make every server look broken. Replicas that agree give exactly their state, so with one
 *     replica nothing differs from before.
 *  3. No live replica has recorded one (a single process without a heartbeat, a release before
 *     per-replica status writing only server_status): this process's own pool state, else the
 *     shared server_status row, else "unknown".
 * The rows of a replica whose heartbeat went stale are listed (live: false) but never counted.
 */

/** One replica's view of a server, as the API shows it. */
export type ServerReplicaDto = {
  /** the replica's id: SWITCHBOARD_REPLICA_ID, or host:port */
  id: string;
  /** its connection state of the server; "unknown" for a live replica that has recorded none yet */
  state: string;
  lastError: string | null;
  /** when it last recorded a state of the server (ISO 8601); null when it has recorded none */
  updatedAt: string | null;
  /** its heartbeat is recent; a replica gone silent is listed but not counted */
  live: boolean;
};

/** How many live replicas have the server ready, of how many live replicas. */
export type ReplicaSummary = { ready: number; of: number };

/** A per-replica row as stored, joined with whether its replica is live. */
export type ReplicaStatusRow = {
  replicaId: string;
  state: string;
  lastError: string | null;
  updatedAt: Date;
  live: boolean;
};

export type CombinedState = {
  /** undefined when nothing is known: callers say "unknown" (lists) or "disconnected" (diagnostics) */
  state: string | undefined;
  /** the error that explains that state: the worst replica's, else the shared row's */
  lastError: string | null;
  replicas: ServerReplicaDto[];
  replicaSummary: ReplicaSummary;
};

const worstFirst = [
  "needs-authorization",
  "crash-loop",
  "disconnected",
  "disabled",
  "degraded",
  "connecting",
  "ready",
] as const;

/** A state this release does not know (a newer replica's) ranks with disconnected: not serving. */
const rank = (state: string) => {
  const index = worstFirst.indexOf(state as (typeof worstFirst)[number]);
  return index === -1 ? worstFirst.indexOf("disconnected") : index;
};

export function combineReplicaStates(input: {
  enabled: boolean;
  disabledReason: string | null;
  /** server_status: written by whichever replica reported last */
  shared: { state: string; lastError: string | null } | undefined;
  /** this server's rows, of replicas still on record */
  rows: readonly ReplicaStatusRow[];
  /** the replicas whose heartbeat is recent */
  liveReplicaIds: readonly string[];
  /** this process's pool, fresher than its own row (diagnostics): replaces it */
  own?: { id: string; state: string };
}): CombinedState {
  const { own } = input;
  const byId = new Map(input.rows.map((row) => [row.replicaId, row]));
  const live = new Set(input.liveReplicaIds);
  const ids = [...new Set([...input.liveReplicaIds, ...byId.keys()])].sort();
  const replicas: ServerReplicaDto[] = ids.map((id) => {
    const row = byId.get(id);
    return {
      id,
      state: own?.id === id ? own.state : (row?.state ?? "unknown"),
      lastError: row?.lastError ?? null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
      live: live.has(id),
    };
  });
  const counted = replicas.filter((replica) => replica.live);
  const known = counted.filter((replica) => replica.state !== "unknown");
  const worst = known.reduce<ServerReplicaDto | undefined>(
    (found, replica) => (found && rank(found.state) <= rank(replica.state) ? found : replica),
    undefined,
  );
  const replicaSummary = {
    ready: counted.filter((replica) => replica.state === "ready").length,
    of: counted.length,
  };
  return {
    state: input.enabled ? (worst?.state ?? own?.state ?? input.shared?.state) : "disabled",
    lastError: input.disabledReason ?? worst?.lastError ?? input.shared?.lastError ?? null,
    replicas,
    replicaSummary,
  };
}
