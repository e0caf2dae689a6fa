import "server-only";
import type { Server } from "node:http";
import type postgres from "postgres";
import { callsOnRecord } from "@/lib/calls/call-journal";
import { failInterruptedCalls } from "@/lib/calls/recover-interrupted";
import { readEnv } from "@/lib/env";
import { log } from "@/lib/observability/log";
import { stopTracing } from "@/lib/observability/traces";
import { processSingleton } from "@/lib/process-singleton";
import { killAllGroupsNow } from "@/lib/upstream/transport/process-group";
import { stopWebhookWorker } from "@/lib/webhooks/delivery-worker";
import { closeDatabase, type ProcessDatabase, peekDatabase } from "./process-db";
import { stopReplicaHeartbeat } from "./replica";
import { getServerRuntime } from "./server-runtime";
import { shutdownGate } from "./shutdown-state";

/**
 * The graceful shutdown on SIGTERM/SIGINT (lib/runtime/shutdown-state.ts holds the state):
 *
 *   1. stop taking calls — /mcp and the routes that start calls answer 503 "shutting down", waits
 *      for a decision answer with the call's state, readiness reports not ready;
 *   2. let calls in flight finish, up to SWITCHBOARD_SHUTDOWN_GRACE_SECONDS (default 20);
 *   3. stop the ones still running: each ends as failed, saying why, and is written;
 *   4. close the HTTP server, then the connection pool (stdio servers' process groups), then the
 *      database (its event relay first; a PGlite folder's lock is released) — and exit 0.
 *
 * A second signal stops at once (exit 130/143): stdio groups are killed, and calls still running
 * are ended as interrupted by the next start (PGlite) or by another process's sweep (PostgreSQL).
 * Registered with `on`, never `once`: the process-group spawner leaves a handled signal alone.
 */

/** After the grace period: how long the stopped calls' endings may take to be written. */
const FINISH_WRITES_MS = 5_000;
/** Responses under way get this long before the sockets left (event streams) are cut. */
const CLOSE_CONNECTIONS_MS = 1_000;
/** A close step that hangs (a database gone away) must not keep the process for ever. */
const CLOSE_LIMIT_MS = 20_000;

const SIGNALS = ["SIGTERM", "SIGINT"] as const;
type ShutdownSignal = (typeof SIGNALS)[number];

/** Installs the handlers once per process (instrumentation.ts, before the runtime starts). */
export function installShutdownHandlers(): void {
  processSingleton("ShutdownHandlers", () => {
    let started = false;
    for (const signal of SIGNALS) {
      process.on(signal, () => {
        if (started) return stopAtOnce(signal);
        started = true;
        void shutDown(signal);
      });
    }
    return true;
  });
}

async function shutDown(signal: ShutdownSignal): Promise<void> {
  const graceSeconds = readGraceSeconds();
  shutdownGate.beginDraining();
  // At once: other replicas stop handing this one's gateway sessions to it (they would get 503s).
  await step("the replica's row", leaveReplicas);
  log.info(
    `${signal}: shutting down. New calls are refused; ${shutdownGate.callsRunning} call(s) running get up to ${graceSeconds} s to finish (${signal} again stops at once).`,
  );
  if (!(await shutdownGate.whenIdle(graceSeconds * 1000))) {
    log.info(
      `the grace period is over: ${shutdownGate.callsRunning} call(s) still running are stopped and recorded as failed`,
    );
    shutdownGate.interrupt();
    if (!(await shutdownGate.whenIdle(FINISH_WRITES_MS)))
      log.error("some stopped calls were not written in time; they are ended below");
  }
  const limit = setTimeout(() => {
    log.error("shutting down took too long; exiting anyway");
    process.exit(1);
  }, CLOSE_LIMIT_MS);
  await step("the HTTP server", closeHttpServer);
  await step("the connection pool", async () => (await getServerRuntime())?.stop());
  await step("webhook deliveries", stopWebhookWorker);
  await step("the database", () => closeDatabase(endCallsLeftRunning));
  // Last: the spans of everything above are exported (bounded by OTEL_BSP_EXPORT_TIMEOUT).
  await step("trace export", stopTracing);
  clearTimeout(limit);
  log.info("shut down");
  process.exit(0);
}

async function leaveReplicas(): Promise<void> {
  const handle = await peekDatabase()?.catch(() => undefined);
  if (handle) await stopReplicaHeartbeat(handle.db);
}

function stopAtOnce(signal: ShutdownSignal): void {
  log.warn(`${signal} again: stopping at once`);
  killAllGroupsNow();
  process.exit(signal === "SIGINT" ? 130 : 143);
}

function readGraceSeconds(): number {
  try {
    return readEnv().shutdownGraceSeconds;
  } catch {
    return 20; // the configuration was already refused at start; the default, as documented
  }
}

/** Each step is tried even when the one before failed: the lock and the database matter most. */
async function step(what: string, close: () => Promise<unknown>): Promise<void> {
  try {
    await close();
  } catch (error) {
    log.error(`closing ${what} failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/**
 * No new connection, idle keep-alive ones closed now; a response under way gets a moment, then
 * what is left — event streams, MCP GET streams — is cut: their readers reconnect elsewhere.
 */
async function closeHttpServer(): Promise<void> {
  const server = (globalThis as { __switchboardHttpServer?: Server }).__switchboardHttpServer;
  if (!server) return; // not started by server.mjs (next dev, tests)
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_CONNECTIONS_MS))]);
  server.closeAllConnections();
  await closed;
}

/**
 * A last look before the database closes: a call of this process still `running` (a run that
 * hung past its stop) is ended as interrupted now, so none is left running for a sweep to find.
 */
async function endCallsLeftRunning(handle: ProcessDatabase): Promise<void> {
  await callsOnRecord(handle.db);
  // PGlite's folder is this process's alone: every running call is ours.
  const runners =
    handle.driver === "pglite" ? undefined : [await ownRunnerName(handle.client as postgres.Sql)];
  const ended = await failInterruptedCalls(handle.db, runners);
  if (ended > 0) log.info(`${ended} call(s) still running at shutdown marked failed`);
}

async function ownRunnerName(client: postgres.Sql): Promise<string> {
  const [row] = await client<{ name: string }[]>`select current_setting('application_name') as name`;
  return row?.name ?? "";
}
