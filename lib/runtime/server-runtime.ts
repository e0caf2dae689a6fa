import "server-only";
import { eq } from "drizzle-orm";
import { healthChecks, type McpServer, mcpServers, serverStatus } from "@/db/schema";
import { normalizeSecrets, scrubText, scrubValue } from "@/lib/calls/scrub";
import { loadWorkspaceSecrets } from "@/lib/calls/workspace-secrets";
import { discoverCatalog } from "@/lib/catalog/discovery";
import { saveCatalog } from "@/lib/catalog/save-catalog";
import { backoffDelay } from "@/lib/client/backoff";
import type { Database } from "@/lib/db/client";
import { DATABASE_RETRY_BACKOFF, isDatabaseUnavailable, isForeignKeyViolation } from "@/lib/db/errors";
import { askOperator } from "@/lib/elicitations/ask-operator";
import { AppError } from "@/lib/errors";
import { recordEvent, subscribeEvents } from "@/lib/events/record-event";
import { providerOptions } from "@/lib/oauth/authorization";
import { ConnectionProvider } from "@/lib/oauth/stored-provider";
import { log } from "@/lib/observability/log";
import { readSecretValue } from "@/lib/secrets/secrets";
import { recordCrashCalls } from "@/lib/servers/crash-attribution";
import { saveReplicaStatus } from "@/lib/servers/replica-status";
import { checkConnectionPolicy } from "@/lib/servers/server-policy-check";
import { type ConnectionConfig, createValueResolver } from "@/lib/upstream/connection-config";
import { ConnectionPool, type ConnectionPoolOptions } from "@/lib/upstream/pool";
import type { PoolEvent } from "@/lib/upstream/pool-events";
import packageJson from "@/package.json";
import { replicaId as currentReplicaId } from "./replica";

/**
 * The live side of the server registry: owns the process's connection pool, keeps it in line
 * with the registry, and persists what the pool reports (status, health history, catalog).
 * One per process, on globalThis, so dev reloads and route bundles share it. What it writes names
 * its replica: each replica's state of a server is its own row (lib/servers/replica-status.ts),
 * its health checks and state events carry its id.
 */
export class ServerRuntime {
  readonly pool: ConnectionPool;
  // Per server, two queues: what the pool reported (persisted in order, may wait on the server or
  // the database) and what the registry asked for (connect, reconfigure, remove). A delete must
  // not wait behind a hung discovery: its process, with its secrets, would outlive it by a minute.
  private readonly queues = new Map<string, Promise<void>>();
  private readonly controlQueues = new Map<string, Promise<void>>();
  // Servers deleted while this process ran: nothing more is written for them.
  private readonly removed = new Set<string>();
  private readonly refreshTimers = new Map<string, NodeJS.Timeout>();
  private readonly lastHealthOk = new Map<string, boolean>();
  private stopping = false;
  private unsubscribe: () => void = () => {};
  /** This replica's id unless a test runs several runtimes in one process as separate replicas. */
  readonly replicaId: string;

  constructor(
    private readonly db: Database,
    { replicaId, ...options }: Partial<ConnectionPoolOptions> & { replicaId?: string } = {},
  ) {
    this.replicaId = replicaId ?? currentReplicaId();
    this.pool = new ConnectionPool({
      resolveValue: createValueResolver({ readSecret: (scope) => readSecretValue(db, scope) }),
      checkPolicy: (config) => checkConnectionPolicy(db, config),
      upstreamAuth: (config) => this.oauthFor(config),
      askOperator: (question, signal) => askOperator(db, question, signal),
      onEvent: (event) => this.enqueue(event.serverId, () => this.handle(event)),
      clientInfo: { name: "switchboard", version: packageJson.version },
      ...options,
    });
  }

  /**
   * Loads every registered server (enabled ones connect in the background) and follows the
   * registry's events — from this process and, through the relay, from every other one.
   */
  async start(): Promise<void> {
    this.unsubscribe = subscribeEvents((event) => {
      if (event.type === "server.registered" || event.type === "server.updated") {
        this.control(event.serverId, () => this.sync(event.serverId));
      } else if (event.type === "server.authorized" || event.type === "server.deauthorized") {
        // New tokens, or none: connect again with what is stored now (no tokens: it waits for a Connect).
        this.control(event.serverId, () => this.pool.reconnect(event.serverId).catch(() => {}));
      } else if (event.type === "server.deleted") {
        this.forget(event.serverId);
        this.control(event.serverId, () => this.pool.remove(event.serverId));
      }
    });
    const rows = await this.db.select().from(mcpServers);
    await Promise.all(rows.map((row) => this.pool.upsert(row)));
  }

  /** Closes every connection, then lets the events the closing produced reach the database. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe();
    for (const timer of this.refreshTimers.values()) clearTimeout(timer);
    await this.pool.closeAll();
    await Promise.all([...this.controlQueues.values(), ...this.queues.values()]);
  }

  /** Resolves once everything queued for the server so far has been handled (tests, shutdown). */
  async settled(serverId: string): Promise<void> {
    await Promise.all([this.controlQueues.get(serverId), this.queues.get(serverId)]);
  }

  /** Lists the server's catalog again and stores it; a change becomes a snapshot and an event. */
  async refreshCatalog(
    server: Pick<McpServer, "id" | "tenantId" | "name">,
    knownSecrets?: readonly string[],
  ) {
    const client = await this.pool.getClient(server.id);
    const secrets = knownSecrets ?? (await this.secretsSeenBy(server));
    // Bounded by the server's call timeout (the pool bounds every request of its clients).
    const catalog = await discoverCatalog(client, { redact: (text) => scrubText(text, secrets) });
    if (this.removed.has(server.id)) throw serverRemoved(server.name);
    const result = await saveCatalog(this.db, {
      tenantId: server.tenantId,
      serverId: server.id,
      catalog,
      problems: catalog.problems,
      secrets,
    }).catch((error: unknown) => {
      // Deleted by another process meanwhile: its catalog went with it.
      throw isForeignKeyViolation(error) ? serverRemoved(server.name) : error;
    });
    const ref = { serverId: server.id, serverName: server.name };
    if (result.changed) {
      await recordEvent(this.db, {
        tenantId: server.tenantId,
        event: { type: "catalog.changed", ...ref, snapshotId: result.snapshotId, diff: result.diff },
      });
    }
    if (result.problems.length > 0) {
      await recordEvent(this.db, {
        tenantId: server.tenantId,
        event: { type: "catalog.problem", ...ref, problems: result.problems.slice(0, 50) },
      });
    }
    return result;
  }

  /**
   * What a server may echo into its catalog and info: every secret value of its workspace, and
   * what its connection was handed — which differs after a secret was changed while it ran.
   */
  private async secretsSeenBy(server: Pick<McpServer, "id" | "tenantId">): Promise<string[]> {
    const workspace = await loadWorkspaceSecrets(this.db, { tenantId: server.tenantId });
    return normalizeSecrets([...workspace, ...this.pool.secretValues(server.id)]);
  }

  /** An OAuth server's token keeper; its problems that need a person become an event. */
  private oauthFor(config: ConnectionConfig): ConnectionProvider | undefined {
    if (config.transport === "stdio" || config.auth.type !== "oauth" || !config.url) return undefined;
    const server = {
      id: config.id,
      tenantId: config.tenantId,
      name: config.name,
      url: config.url,
      auth: config.auth,
    };
    return new ConnectionProvider(
      this.db,
      server,
      providerOptions(this.db),
      (problem, needsAuthorization) => {
        if (!needsAuthorization) return;
        this.enqueue(config.id, () =>
          recordEvent(this.db, {
            tenantId: config.tenantId,
            event: {
              type: "server.authorization_needed",
              serverId: config.id,
              serverName: config.name,
              reason: problem.message,
            },
          }),
        );
      },
    );
  }

  private async sync(serverId: string): Promise<void> {
    const [row] = await this.db.select().from(mcpServers).where(eq(mcpServers.id, serverId));
    if (row) return this.pool.upsert(row);
    this.forget(serverId);
    await this.pool.remove(serverId);
  }

  /** A deleted server: what is still queued for it is dropped, and nothing new is written. */
  private forget(serverId: string): void {
    this.removed.add(serverId);
    clearTimeout(this.refreshTimers.get(serverId));
    this.refreshTimers.delete(serverId);
    this.lastHealthOk.delete(serverId);
  }

  /** Events of one server are handled in order; different servers don't wait for each other. */
  private enqueue(serverId: string, work: () => Promise<unknown>): void {
    this.queues.set(
      serverId,
      chain(this.queues.get(serverId), serverId, () => this.throughOutages(serverId, work)),
    );
  }

  /**
   * What the pool reported is written once the database answers again: a server that connected
   * during an outage gets its status and catalog stored, not only at its next reconnect. Later
   * events of that server wait behind it, so their order holds. A stop or a delete ends the wait.
   */
  private async throughOutages(serverId: string, work: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await work();
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || this.stopping || this.removed.has(serverId)) throw error;
        await new Promise((resolve) =>
          setTimeout(resolve, backoffDelay(attempt, DATABASE_RETRY_BACKOFF)).unref(),
        );
      }
    }
  }

  /** Registry changes of one server, in order, never behind its event queue. */
  private control(serverId: string, work: () => Promise<unknown>): void {
    this.controlQueues.set(serverId, chain(this.controlQueues.get(serverId), serverId, work));
  }

  private async handle(event: PoolEvent): Promise<void> {
    if (this.removed.has(event.serverId)) return;
    const ref = { serverId: event.serverId, serverName: event.serverName };
    const tenantId = event.tenantId;
    switch (event.type) {
      case "state.changed":
        await this.saveStatus(event, {
          state: event.to,
          ...(event.error ? { lastError: event.error, lastErrorAt: new Date(event.at) } : {}),
        });
        await saveReplicaStatus(this.db, {
          serverId: event.serverId,
          tenantId,
          replicaId: this.replicaId,
          state: event.to,
          error: event.error,
          at: new Date(event.at),
        }).catch(ignoreDeletedServer);
        await recordEvent(this.db, {
          tenantId,
          event: {
            type: "server.state_changed",
            ...ref,
            from: event.from,
            to: event.to,
            error: event.error,
            replicaId: this.replicaId,
          },
        });
        return;
      case "connected": {
        const server = { id: event.serverId, tenantId, name: event.serverName };
        const secrets = await this.secretsSeenBy(server);
        await this.saveStatus(event, {
          serverInfo: scrubValue(event.serverInfo ?? null, secrets),
          capabilities: scrubValue(
            (event.capabilities as Record<string, unknown> | undefined) ?? null,
            secrets,
          ),
        });
        await this.refreshCatalog(server, secrets).catch((error: unknown) => {
          if (this.removed.has(server.id)) return; // deleted meanwhile: its connection closed under it
          if (isDatabaseUnavailable(error)) throw error; // listed again once the database is back
          log.error(`${event.serverName}: discovery failed: ${(error as Error).message}`);
        });
        return;
      }
      case "process.exited":
        await this.saveStatus(event, {
          exitCode: event.exit.code,
          exitSignal: event.exit.signal,
          stderrTail: event.stderrTail,
        });
        await recordEvent(this.db, {
          tenantId,
          event: {
            type: "server.process_exited",
            ...ref,
            pid: event.pid,
            exitCode: event.exit.code,
            signal: event.exit.signal,
            replicaId: this.replicaId,
          },
        });
        return;
      case "health.checked": {
        const { result } = event;
        const inserted = await this.db
          .insert(healthChecks)
          .values({
            tenantId,
            serverId: event.serverId,
            ok: result.ok,
            latencyMs: result.latencyMs,
            error: result.error ?? null,
            checkedAt: new Date(result.checkedAt),
            replicaId: this.replicaId,
          })
          .then(() => true)
          .catch(ignoreDeletedServer);
        if (!inserted) return;
        // Every probe is history; only a change of health (on this replica) is news.
        if (this.lastHealthOk.get(event.serverId) !== result.ok) {
          this.lastHealthOk.set(event.serverId, result.ok);
          await recordEvent(this.db, {
            tenantId,
            event: {
              type: "server.health_checked",
              ...ref,
              ok: result.ok,
              latencyMs: result.latencyMs,
              error: result.error,
              replicaId: this.replicaId,
            },
          });
        }
        return;
      }
      case "crashed.during_calls":
        await recordCrashCalls(this.db, {
          tenantId,
          serverId: event.serverId,
          exit: event.exit,
          calls: event.calls,
        });
        return;
      case "list.changed":
        this.scheduleRefresh({ id: event.serverId, tenantId, name: event.serverName });
        return;
      case "process.started":
      case "stderr":
        return;
    }
  }

  /** Servers often send several list_changed notices in a burst: list once after they settle. */
  private scheduleRefresh(server: Pick<McpServer, "id" | "tenantId" | "name">): void {
    clearTimeout(this.refreshTimers.get(server.id));
    const timer = setTimeout(() => {
      this.refreshTimers.delete(server.id);
      this.enqueue(server.id, () => this.refreshCatalog(server));
    }, 250);
    timer.unref();
    this.refreshTimers.set(server.id, timer);
  }

  private async saveStatus(
    event: { serverId: string; tenantId: string; at: string },
    values: Partial<typeof serverStatus.$inferInsert>,
  ): Promise<void> {
    const row = { ...values, updatedAt: new Date(event.at) };
    await this.db
      .insert(serverStatus)
      .values({ serverId: event.serverId, tenantId: event.tenantId, ...row })
      .onConflictDoUpdate({ target: serverStatus.serverId, set: row })
      .catch(ignoreDeletedServer);
  }
}

function chain(previous: Promise<void> | undefined, serverId: string, work: () => Promise<unknown>) {
  return (previous ?? Promise.resolve())
    .then(work)
    .then(() => undefined)
    .catch((error: unknown) => log.error({ serverId }, `server ${serverId}: ${(error as Error).message}`));
}

/** Deleted by another process before its server.deleted event reached this one: nothing to keep. */
function ignoreDeletedServer(error: unknown): false {
  if (isForeignKeyViolation(error)) return false;
  throw error;
}

const serverRemoved = (name: string) =>
  new AppError("not_found", `The server "${name}" was deleted while its catalog was listed.`);

const state = globalThis as typeof globalThis & { __switchboardRuntime?: Promise<ServerRuntime> };

/** The process's runtime, started once; stopped by the shutdown (lib/runtime/shutdown.ts). */
export function startServerRuntime(db: Database): Promise<ServerRuntime> {
  state.__switchboardRuntime ??= (async () => {
    const runtime = new ServerRuntime(db);
    try {
      await runtime.start();
    } catch (error) {
      // Not cached as started: start-up tries again once the database answers.
      await runtime.stop().catch(() => {});
      state.__switchboardRuntime = undefined;
      throw error;
    }
    return runtime;
  })();
  return state.__switchboardRuntime;
}

export function getServerRuntime(): Promise<ServerRuntime> | undefined {
  return state.__switchboardRuntime;
}

/** The runtime, or a 503 saying this process runs no connection pool (one wording for every caller). */
export async function requireServerRuntime(): Promise<ServerRuntime> {
  const runtime = await getServerRuntime();
  if (!runtime)
    throw new AppError("upstream_unavailable", "The connection pool is not running in this process.");
  return runtime;
}

/** Tests install their own runtime (and stop it themselves). */
export function setServerRuntime(runtime: ServerRuntime | undefined): void {
  state.__switchboardRuntime = runtime ? Promise.resolve(runtime) : undefined;
}
