// Several real Switchboard processes (`node server.mjs`, from the .next build) sharing one throwaway
// PostgreSQL — the scale-out shape: nothing shared but the database. Reusable by any spec that
// needs "process A does X, process B sees it" (events, approvals decided on another replica…).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { createTestDatabase, type PostgresServer, startPostgres } from "../fixtures/postgres-server";
import { SseReader } from "../fixtures/sse-reader";

export type SwitchboardProcess = {
  name: string;
  url: string;
  pid: number;
  logFile: string;
  /** The process's output so far (for assertions and failure messages). */
  log(): string;
  /** A REST call as the bootstrap admin key. */
  api(method: string, route: string, body?: unknown): Promise<Response>;
  /** GET /api/v1/events/stream (query like "?server=x") as the admin key, optionally resuming. */
  openEventStream(query?: string, lastEventId?: string): Promise<EventStreamClient>;
  stop(): Promise<void>;
};

export type EventStreamClient = { reader: SseReader; close(): void };

export type Cluster = {
  databaseUrl: string;
  /** The admin API key both processes accept (SWITCHBOARD_BOOTSTRAP_API_KEY). */
  apiKey: string;
  processes: SwitchboardProcess[];
  stop(): Promise<void>;
};

const root = process.cwd();
const serverScript = path.join(root, "server.mjs");
const logDir = path.join(root, ".data", "e2e-multi-process");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a PostgreSQL server, a database on it, and `count` Switchboard processes on that database
 * (started together: migrations and bootstrap must cope with a race). Resolves when every process
 * answers /api/v1/health on PostgreSQL. `env` adds to every process's environment.
 */
export async function startCluster(
  options: { processes?: number; env?: Record<string, string> } = {},
): Promise<Cluster> {
  const postgres: PostgresServer = await startPostgres();
  const processes: SwitchboardProcess[] = [];
  try {
    const databaseUrl = await createTestDatabase(postgres.url);
    const apiKey = `sb_multi-${randomBytes(16).toString("hex")}`;
    const shared = {
      DATABASE_URL: databaseUrl,
      SWITCHBOARD_BOOTSTRAP_API_KEY: apiKey,
      SWITCHBOARD_SEED_DEMO: "false",
      // One key for all: a secret written through one process is read by another.
      SWITCHBOARD_SECRET_KEY: randomBytes(32).toString("base64"),
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    };
    const names = Array.from({ length: options.processes ?? 2 }, (_, i) => String.fromCharCode(65 + i));
    const started = await Promise.allSettled(names.map((name) => startProcess(name, shared, apiKey)));
    for (const result of started) if (result.status === "fulfilled") processes.push(result.value);
    const failed = started.find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return {
      databaseUrl,
      apiKey,
      processes,
      async stop() {
        await Promise.all(processes.map((p) => p.stop()));
        await postgres.stop();
      },
    };
  } catch (error) {
    await Promise.all(processes.map((p) => p.stop()));
    await postgres.stop();
    throw error;
  }
}

async function startProcess(
  name: string,
  env: Record<string, string>,
  apiKey: string,
): Promise<SwitchboardProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  const out = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, [serverScript], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      SWITCHBOARD_DATA_DIR: path.join(logDir, `${name}-data`),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const log = () => {
    try {
      return readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  };
  const auth = { authorization: `Bearer ${apiKey}` };

  const proc: SwitchboardProcess = {
    name,
    url,
    pid: child.pid ?? 0,
    logFile,
    log,
    api: (method, route, body) =>
      fetch(`${url}${route}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    async openEventStream(query = "", lastEventId) {
      const abort = new AbortController();
      const res = await fetch(`${url}/api/v1/events/stream${query}`, {
        headers: {
          ...auth,
          accept: "text/event-stream",
          ...(lastEventId ? { "last-event-id": lastEventId } : {}),
        },
        signal: abort.signal,
      });
      if (res.status !== 200 || !res.body) {
        throw new Error(`process ${name}: event stream answered ${res.status}: ${await res.text()}`);
      }
      const reader = new SseReader(res.body);
      // The first block (retry + comment) means the server has subscribed: events from now on arrive.
      await reader.next(10_000);
      return { reader, close: () => abort.abort() };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const stopped = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!stopped) {
        child.kill("SIGKILL");
        await exited;
      }
      out.end();
    },
  };

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `process ${name} exited (${child.exitCode}) before it was ready:\n${log().slice(-4000)}`,
      );
    }
    const health = await fetch(`${url}/api/v1/health`)
      .then(async (r) => (r.ok ? ((await r.json()) as { database?: string }) : undefined))
      .catch(() => undefined);
    if (health?.database === "postgres") return proc;
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`process ${name} did not become ready at ${url}:\n${log().slice(-4000)}`);
    }
    await sleep(250);
  }
}
