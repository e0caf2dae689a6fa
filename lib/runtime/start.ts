import "server-only";
import path from "node:path";
import { endStrandedRuns } from "@/lib/agents/agent-runs";
import { issueSetupToken, needsSetup } from "@/lib/auth/setup";
import { openCallIntents } from "@/lib/calls/call-journal";
import { recoverApprovedCalls } from "@/lib/calls/recover-approved";
import { failInterruptedCalls } from "@/lib/calls/recover-interrupted";
import { startStoppedRunnerSweeps } from "@/lib/calls/stopped-runners";
import { applyGatewayNamesEverywhere } from "@/lib/catalog/apply-gateway-names";
import { backoffDelay } from "@/lib/client/backoff";
import { DATABASE_RETRY_BACKOFF } from "@/lib/db/errors";
import { readEnv } from "@/lib/env";
import { startEventRelay } from "@/lib/events/record-event";
import { listensOnLoopbackOnly } from "@/lib/http/listening";
import { log } from "@/lib/observability/log";
import { startProcessMetrics } from "@/lib/observability/metrics-endpoint";
import { startTracing } from "@/lib/observability/traces";
import { processSingleton } from "@/lib/process-singleton";
import { getDatabase, type ProcessDatabase } from "@/lib/runtime/process-db";
import { type Dependency, reportStarted, reportStartupProblem } from "@/lib/runtime/readiness";
import { startReplicaHeartbeat } from "@/lib/runtime/replica";
import { isShuttingDown } from "@/lib/runtime/shutdown-state";
import { disableServersRefusedAtStart, labelOfRefused } from "@/lib/servers/policy-sweep";
import { folderBlockingChildren } from "@/lib/upstream/transport/stdio-identity";
import { startWebhookWorker } from "@/lib/webhooks/delivery-worker";
import { startServerRuntime } from "./server-runtime";

/** What start-up has done already: an attempt after a failure goes on from there. */
const progress = processSingleton("Startup", () => ({
  running: false,
  recovered: false,
  approvedRecovered: false,
  setupChecked: false,
  serversChecked: false,
  namesApplied: false,
  lastLogged: { line: "", at: 0 },
}));

/**
 * The process runtime: the database, the event relay, then the connection pool (servers connect in
 * the background). Until all three are up, start-up tries again with backoff — a process started
 * while its database is down (or its PGlite folder still locked by a process that is dying) starts
 * by itself once it can — and readiness says what it waits for. Instrumentation awaits only the
 * first attempt, so the server answers (liveness, 503s) meanwhile.
 */
export async function startRuntime(): Promise<void> {
  if (progress.running) return;
  progress.running = true;
  // Before the first event: the metrics count from the process's start.
  startProcessMetrics();
  // Only with an OTLP endpoint configured (OTEL_EXPORTER_OTLP_ENDPOINT); otherwise nothing at all.
  startTracing();
  if (await attemptStart()) return;
  void (async () => {
    // A shutdown ends the retries: nothing should open the database it is closing.
    for (let attempt = 1; !isShuttingDown() && !(await attemptStart()); attempt++) {
      await new Promise((resolve) =>
        setTimeout(resolve, backoffDelay(attempt, DATABASE_RETRY_BACKOFF)).unref(),
      );
    }
  })();
}

/** One attempt; true once everything runs. Steps already done are not repeated. */
async function attemptStart(): Promise<boolean> {
  let handle: ProcessDatabase;
  try {
    handle = await getDatabase();
  } catch (error) {
    // getDatabase has logged why it did not open.
    reportStartupProblem("database", error);
    return false;
  }
  const { db, driver } = handle;
  reportStarted("database");
  try {
    // Before the pool starts, so events of other processes sharing the database reach this one's
    // subscribers (SSE streams, calls waiting for a decision) from the start.
    await startEventRelay(handle);
    // Named among the replicas before it serves: other replicas hand its sessions' requests to it.
    await startReplicaHeartbeat(db);
    reportStarted("relay");
    // Follows events from here on; sends what earlier runs left pending too.
    startWebhookWorker(db);
  } catch (error) {
    return failedAttempt("relay", "event relay not started", error);
  }
  try {
    if (!progress.recovered) {
      progress.recovered = true;
      if (driver === "pglite") await recoverInterruptedCalls(handle);
      else startStoppedRunnerSweeps(db);
    }
    if (!progress.setupChecked) {
      if (await needsSetup(db)) await announceSetup(db);
      progress.setupChecked = true;
    }
    if (!progress.serversChecked) {
      await disableRefusedServersAtStart(db);
      warnIfStdioUserIsShutOut();
      progress.serversChecked = true;
    }
    if (!progress.namesApplied) {
      // Names stored by an older rule (dots, over the budget) get today's, grants following.
      const renamed = await applyGatewayNamesEverywhere(db);
      if (renamed > 0) log.info(`${renamed} gateway tool names updated to the naming rule`);
      progress.namesApplied = true;
    }
    const runtime = await startServerRuntime(db);
    log.info(`database ready (${driver}); connection pool started (${runtime.pool.ids().length} servers)`);
    // Once the pool runs: an approved call the last run did not start is started now, or expired.
    if (driver === "pglite" && !progress.approvedRecovered) {
      await recoverLeftApprovedCalls(db);
      progress.approvedRecovered = true;
    }
    reportStarted("pool");
    return true;
  } catch (error) {
    return failedAttempt("pool", "runtime not started", error);
  }
}

/** Logs a failed attempt — a line per new reason, or per minute while it lasts, so an outage does not flood the log. */
function failedAttempt(dependency: Dependency, what: string, error: unknown): false {
  reportStartupProblem(dependency, error);
  const line = `${what} (trying again): ${(error as Error)?.message ?? String(error)}`;
  const now = Date.now();
  if (line !== progress.lastLogged.line || now - progress.lastLogged.at > 60_000) {
    progress.lastLogged = { line, at: now };
    log.error(line);
  }
  return false;
}

/**
 * The data folder is this process's alone: a call still running, or still only in the intent log,
 * is one the last run left. Ended as failed before the pool starts. Each step's failure is logged
 * and tried again at the next start, and keeps neither the other step nor the pool from starting.
 */
async function recoverInterruptedCalls(handle: ProcessDatabase): Promise<void> {
  const { db, dataDir } = handle;
  // Without its intent log a PGlite on disk writes each call before running it (call-journal).
  if (dataDir) {
    const fromLog = await openCallIntents(db, path.join(dataDir, "call-intents.log")).catch(
      (error: unknown) => {
        log.error(`call intent log not opened: ${(error as Error).message}`);
        return 0;
      },
    );
    if (fromLog > 0) log.info(`${fromLog} call(s) written from the intent log`);
  }
  const interrupted = await failInterruptedCalls(db).catch((error: unknown) => {
    log.error(`interrupted calls not marked failed: ${(error as Error).message}`);
    return 0;
  });
  if (interrupted > 0) log.info(`${interrupted} call(s) interrupted by the last stop marked failed`);
  const runs = await endStrandedRuns(db, { all: true }).catch((error: unknown) => {
    log.error(`agent runs left running not ended: ${(error as Error).message}`);
    return 0;
  });
  if (runs > 0) log.info(`${runs} agent run(s) left running by the last stop marked failed`);
}

async function recoverLeftApprovedCalls(db: ProcessDatabase["db"]): Promise<void> {
  const taken = await recoverApprovedCalls(db).catch((error: unknown) => {
    log.error(`approved calls of the last run not recovered: ${(error as Error).message}`);
    return 0;
  });
  if (taken > 0) log.info(`${taken} approved call(s) the last run did not start taken over`);
}

/** Before anything connects: servers the policies no longer allow (an upgrade, a change elsewhere) are disabled. */
async function disableRefusedServersAtStart(db: ProcessDatabase["db"]): Promise<void> {
  try {
    const refused = await disableServersRefusedAtStart(db);
    for (const server of refused) {
      log.info(`disabled ${labelOfRefused(server)}: ${server.refusal.reason}`);
    }
  } catch (error) {
    log.error(`the policy check of registered servers failed: ${(error as Error).message}`);
  }
}

/** As root, stdio servers run as another user: say so at once if the project folder is out of its reach. */
function warnIfStdioUserIsShutOut(): void {
  try {
    const blocking = folderBlockingChildren(process.cwd());
    if (blocking) {
      log.warn(
        `stdio servers run as ${readEnv().stdioUser}, who cannot enter ${blocking}: servers in ${process.cwd()} (the demo servers among them) cannot start. Give that folder the search bit (chmod o+x), move Switchboard, or set SWITCHBOARD_STDIO_USER.`,
      );
    }
  } catch (error) {
    log.error(`stdio servers cannot start: ${(error as Error).message}`);
  }
}

async function announceSetup(db: ProcessDatabase["db"]) {
  const url = `${readEnv().publicUrl}/setup`;
  // Issued even on loopback: a visitor through a reverse proxy on this machine needs it too.
  const token = await issueSetupToken(db);
  if (listensOnLoopbackOnly()) {
    log.info(
      `first run: open ${url} on this machine to create the admin account (through a proxy, enter the setup token ${token})`,
    );
    return;
  }
  log.info(`first run: open ${url} and enter the setup token ${token} to create the admin account`);
}
