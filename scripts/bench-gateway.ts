// npm run bench:gateway — what the /mcp gateway costs over talking to a server directly, and over
// the relays it is compared with. The demo local-tools `echo`, six ways, each with 1 and then 8
// concurrent clients:
//   direct stdio    SDK client → local-tools over stdio (8 callers share one connection, as the pool does)
//   direct HTTP     SDK clients → an `echo` MCP server over streamable HTTP (tiny wrapper, own process)
//   mcp-proxy       SDK clients → mcp-proxy (npm; streamable HTTP → stdio, relays and nothing else)
//                   → local-tools: what a proxy that does no work per call costs ("relay proxy" in
//                   BENCHMARKS.md before 2026-12-02)
//   mcp-hub         SDK clients → mcp-hub 4.2.1 (npm; aggregates servers, no policy and no record)
//                   → local-tools over stdio. It names tools `<server>__<tool>` like the gateway, but
//                   with the server name's "-" made "_": local_tools__echo. Its MCP endpoint is the
//                   older HTTP+SSE transport, not streamable HTTP (GET /mcp opens an event stream,
//                   POST /messages?sessionId=… carries each request, its answer comes back as an
//                   event on that stream), so its clients use the SDK's SSEClientTransport. Measured
//                   once a client lists the echo there. It runs with XDG_* folders in a temp dir (its
//                   log file, workspace cache), and fetches its marketplace list once at start-up
//                   (harmless when offline).
//   gateway /mcp    SDK clients → Switchboard /mcp → pooled stdio local-tools; every call authorized,
//                   recorded and its result stored
//   gateway /mcp/servers/…
//                   the same through the per-server endpoint /mcp/servers/local-tools (the server's
//                   own tool names)
// Two rounds: the echo of a short unique token, then of 64 KiB of text (the token, then random base64:
// unique per call, ASCII on every path alike, and — like most real results — not a run of one byte
// that a store could compress to nothing). Every path gets the same warm-up (with texts of the round's size) before it is
// measured, and every answer is checked to be its own request's text, whole.
// A path that cannot start (say mcp-hub missing, or exiting at start) is reported by name and the
// bench goes on with the others; so is one whose calls fail while measuring.
// After the tables it prints the issue's goals as ratios, each beside its goal: /mcp against mcp-hub
// (p50 ≤ 1.1×, calls/s ≥ 1.0× on PGlite and ≥ 0.8× on PostgreSQL, 64 KiB p50 ≤ 1.2×) and
// /mcp/servers/local-tools against /mcp (p50 and calls/s within 5%).
// On Linux it also prints the CPU each call cost the bench's clients and the serving processes (the
// server and its children, from /proc): on a machine with few cores, their sum bounds calls/s.
// Options: --url <switchboard> --key <principal gateway key> use a running Switchboard (echo must be
// granted and classified read); otherwise `node server.mjs` (needs `next build`) runs on a free port with a
// temp PGlite folder, or with --postgres on a throwaway PostgreSQL server (the test suite's: Debian's
// postgresql, see scripts/ensure-test-deps.sh). BENCH_CALLS (per client, default 1000), BENCH_WARMUP
// (per path, default 1000).
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestDatabase, startPostgres } from "../tests/fixtures/postgres-server";
import { freePort, processTreeCpuMs, stats, waitFor } from "./bench-common";

// Servers are measured warm, as they run in steady state (V8 optimizes a hot path only after some
// thousand runs): every path gets the same warm-up before it is measured.
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const LARGE_BYTES = 64 * 1024;

// The SDK's HTTP client adds an abort listener per request to its transport's long-lived signal;
// Node releases them as the requests are collected, but warns past 1,500 at once.
setMaxListeners(100_000);
const root = process.cwd();
const BOOTSTRAP_KEY = "sb_bench-bootstrap-key-0123456789abcdef";

type Caller = (text: string) => Promise<string>;
/** One way to reach the echo: `callers(n)` gives n callers (own connections where the path has them). */
type Target = { name: string; pid: number | undefined; callers: (clients: number) => Caller[] };
type Row = {
  name: string;
  clients: number;
  /** text length of each echo: undefined for the short token */
  bytes: number | undefined;
  samples: number[];
  seconds: number;
  mismatches: number;
  /** CPU of this process (the clients) and of the serving process tree while measuring, in ms */
  clientCpuMs: number;
  serverCpuMs: number | undefined;
};

/** Undone in reverse order at the end, also for a path that failed half-way through starting. */
const cleanup: Array<() => Promise<unknown>> = [];

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A child process, killed at the end; `exitReason()` says how it ended (with the end of what it
 * wrote to stderr) once it has, so a wait on it stops at once instead of timing out.
 */
function spawnPeer(
  command: string,
  args: string[],
  options: SpawnOptions & { showStderr?: boolean },
): { child: ChildProcess; exitReason: () => string | undefined } {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "ignore", "pipe"] });
  let tail = "";
  let ended: string | undefined;
  child.stderr?.on("data", (chunk: Buffer) => {
    if (options.showStderr) process.stderr.write(chunk);
    tail = (tail + chunk.toString()).slice(-2000);
  });
  child.on("error", (error) => {
    ended = error.message;
  });
  child.on("exit", (code, signal) => {
    const last = tail.trim().split("\n").slice(-3).join(" | ");
    ended = `exited (${signal ?? `code ${code}`})${last ? `: ${last}` : ""}`;
  });
  cleanup.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  });
  return { child, exitReason: () => ended };
}

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? [])
    .map((c) => c.text ?? "")
    .join("");

function echoCaller(client: Client, name: string): Caller {
  return async (text) => textOf(await client.callTool({ name, arguments: { text } }));
}

/** `token` itself, or `bytes` characters: the token, then random base64 (ASCII: a char is a byte). */
function payload(token: string, bytes: number | undefined): string {
  if (bytes === undefined) return token;
  const filler = randomBytes(Math.ceil((bytes * 3) / 4)).toString("base64");
  return (token + filler).slice(0, bytes);
}

/** `clients` callers, each making CALLS sequential calls; all run at once. */
async function measure(target: Target, clients: number, bytes: number | undefined): Promise<Row> {
  const callers = target.callers(clients);
  // ASCII only, like the filler: one character past U+00FF (the "…" of a row's name) makes V8 hold
  // the whole text as two-byte, and every JSON and UTF-8 step on a 64 KiB text then costs several
  // times as much on every path (BENCHMARKS.md, 2026-12-02): the rows must carry the same bytes.
  const label = target.name.replace(/[^a-z0-9]+/gi, "-");
  for (const call of callers)
    for (let i = 0; i < WARMUP / callers.length; i++) await call(payload(`warm-${i}`, bytes));
  const samples: number[] = [];
  let mismatches = 0;
  const serverCpuBefore = processTreeCpuMs(target.pid);
  const clientCpuBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    callers.map(async (call, c) => {
      for (let i = 0; i < CALLS; i++) {
        const text = payload(`${label}-${c}-${i}-${Math.random().toString(36).slice(2)}`, bytes);
        const t0 = performance.now();
        const answer = await call(text);
        samples.push(performance.now() - t0);
        if (answer !== text) mismatches++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpuAfter = processTreeCpuMs(target.pid);
  return {
    name: target.name,
    clients,
    bytes,
    samples,
    seconds,
    mismatches,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    serverCpuMs:
      serverCpuBefore === undefined || serverCpuAfter === undefined
        ? undefined
        : serverCpuAfter - serverCpuBefore,
  };
}

// ─── the targets ───────────────────────────────────────────────────────────────────────────────

const localTools = ["--import", "tsx", path.join(root, "demo-servers", "local-tools.ts")];

async function connect(client: Client, transport: Parameters<Client["connect"]>[0]): Promise<Client> {
  await client.connect(transport);
  cleanup.push(() => client.close());
  return client;
}

async function httpClients(url: string, headers: Record<string, string> = {}): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: 8 }, () =>
      connect(
        new Client({ name: "bench-http", version: "0" }),
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
      ),
    ),
  );
}

const over = (name: string, pid: number | undefined, clients: Client[], tool: string): Target => ({
  name,
  pid,
  callers: (n) => clients.slice(0, n).map((c) => echoCaller(c, tool)),
});

async function directStdio(): Promise<Target> {
  const transport = new StdioClientTransport({
    command: "node",
    args: localTools,
    cwd: root,
    stderr: "ignore",
  });
  const client = await connect(new Client({ name: "bench-stdio", version: "0" }), transport);
  // Every caller on the one connection, as the gateway's pool does.
  return {
    name: "direct stdio",
    pid: transport.pid ?? undefined,
    callers: (n) => Array.from({ length: n }, () => echoCaller(client, "echo")),
  };
}

/** Until an HTTP server answers at `url` at all (any status). */
const answering = (url: string) => async () =>
  (await fetch(url, { method: "GET" })).status > 0 ? true : undefined;

/** The echo server over streamable HTTP, in its own process like the stdio one. */
async function directHttp(): Promise<Target> {
  const port = await freePort();
  const { child, exitReason } = spawnPeer(
    "node",
    ["--import", "tsx", path.join(root, "scripts", "bench-http-echo.ts")],
    { cwd: root, env: { ...process.env, PORT: String(port) }, showStderr: true },
  );
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(answering(url), "the HTTP echo", exitReason);
  return over("direct HTTP", child.pid, await httpClients(url), "echo");
}

/** mcp-proxy (a relay-only proxy from npm) serving local-tools over streamable HTTP at /mcp. */
async function mcpProxy(): Promise<Target> {
  const port = await freePort();
  const bin = path.join(root, "node_modules", "mcp-proxy", "dist", "bin", "mcp-proxy.mjs");
  if (!existsSync(bin)) throw new Error(`${path.relative(root, bin)} is missing (npm ci)`);
  // No event store: neither the direct HTTP server nor the gateway keeps one by default. Its stderr
  // is not shown: it logs every session, and Node's listener-count warning for its request signals.
  const { child, exitReason } = spawnPeer(
    "node",
    [bin, "--host", "127.0.0.1", "--port", String(port), "--no-eventStore", "--", "node", ...localTools],
    { cwd: root },
  );
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(answering(url), "mcp-proxy", exitReason);
  return over("mcp-proxy", child.pid, await httpClients(url), "echo");
}

/** mcp-hub fronting local-tools over stdio; its clients on its HTTP+SSE endpoint GET /mcp. */
async function mcpHub(): Promise<Target> {
  const port = await freePort();
  const bin = path.join(root, "node_modules", "mcp-hub", "dist", "cli.js");
  if (!existsSync(bin)) throw new Error(`${path.relative(root, bin)} is missing (npm ci)`);
  const dir = mkdtempSync(path.join(tmpdir(), "switchboard-bench-hub-"));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  const config = path.join(dir, "servers.json");
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { "local-tools": { command: "node", args: localTools, cwd: root } } }),
  );
  // It logs JSON lines to stdout and to a file under XDG_STATE_HOME, and keeps a workspace cache
  // there: both go to the temp folder, not the user's home.
  const xdg = (name: string) => path.join(dir, name);
  const { child, exitReason } = spawnPeer("node", [bin, "--port", String(port), "--config", config], {
    cwd: root,
    env: {
      ...process.env,
      XDG_STATE_HOME: xdg("state"),
      XDG_CONFIG_HOME: xdg("config"),
      XDG_DATA_HOME: xdg("data"),
      XDG_CACHE_HOME: xdg("cache"),
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const sseTransport = () => new SSEClientTransport(new URL(`${base}/mcp`));
  // Ready once a client of its /mcp lists the aggregated echo (the downstream connected and listed).
  // 4.2.1 lists it as local_tools__echo: the server's name with its "-" made "_".
  const echo = await waitFor(
    async () => {
      const probe = new Client({ name: "bench-probe", version: "0" });
      try {
        await probe.connect(sseTransport());
        const { tools } = await probe.listTools();
        return tools.find((t) => /^local.tools__echo$/.test(t.name))?.name;
      } finally {
        await probe.close();
      }
    },
    "mcp-hub to list local-tools' echo",
    exitReason,
  );
  const clients = await Promise.all(
    Array.from({ length: 8 }, () => connect(new Client({ name: "bench-sse", version: "0" }), sseTransport())),
  );
  return over("mcp-hub", child.pid, clients, echo);
}

/** A Switchboard of our own (server.mjs), a principal with echo granted and classified read. */
async function startSwitchboard(
  databaseUrl: string | undefined,
): Promise<{ url: string; key: string; pid: number | undefined }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-bench-"));
  // Registered before the server, so it is removed after the server stopped.
  cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const { child, exitReason } = spawnPeer("node", [path.join(root, "server.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      SWITCHBOARD_DATA_DIR: path.join(dataDir, "db"),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      SWITCHBOARD_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    showStderr: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const rest = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { Authorization: `Bearer ${BOOTSTRAP_KEY}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  await waitFor(
    async () => ((await fetch(`${base}/api/v1/health/ready`)).ok ? true : undefined),
    "the Switchboard server",
    exitReason,
  );
  const echoId = await waitFor(
    async () => {
      const { tools } = (await rest("GET", "/api/v1/tools?q=local-tools__echo")) as {
        tools: { id: string; gatewayName: string }[];
      };
      return tools.find((t) => t.gatewayName === "local-tools__echo")?.id;
    },
    "the demo catalog",
    exitReason,
  );
  await rest("PATCH", `/api/v1/tools/${echoId}`, { effect: "read" });
  const { principal } = (await rest("POST", "/api/v1/principals", { name: "bench" })) as {
    principal: { id: string };
  };
  await rest("PUT", `/api/v1/principals/${principal.id}/grants`, { patterns: ["local-tools__echo"] });
  const { key } = (await rest("POST", `/api/v1/principals/${principal.id}/keys`, { name: "bench" })) as {
    key: string;
  };
  return { url: `${base}/mcp`, key, pid: child.pid };
}

/** /mcp and /mcp/servers/local-tools of a Switchboard (ours, or the one given by --url/--key). */
async function gateway(
  given: { url?: string; key?: string },
  databaseUrl: () => Promise<string | undefined>,
): Promise<Target[]> {
  const switchboard =
    given.url && given.key
      ? { url: given.url, key: given.key, pid: undefined }
      : await startSwitchboard(await databaseUrl());
  const auth = { Authorization: `Bearer ${switchboard.key}` };
  return [
    over("gateway /mcp", switchboard.pid, await httpClients(switchboard.url, auth), "local-tools__echo"),
    over(
      "gateway /mcp/servers/…",
      switchboard.pid,
      await httpClients(`${switchboard.url}/servers/local-tools`, auth),
      "echo",
    ),
  ];
}

// ─── report ────────────────────────────────────────────────────────────────────────────────────

function printTable(title: string, rows: Row[]) {
  if (rows.length === 0) return;
  console.log(`\n${title}\n`);
  console.log(
    "| path | clients | p50 | p95 | p99 | calls/s | CPU/call: clients | CPU/call: server | mismatched results |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) {
    const s = stats(row.samples);
    const f = (v: number) => `${v.toFixed(2)} ms`;
    const perCall = (ms: number | undefined) =>
      ms === undefined ? "—" : `${(ms / row.samples.length).toFixed(2)} ms`;
    console.log(
      `| ${row.name} | ${row.clients} | ${f(s.p50)} | ${f(s.p95)} | ${f(s.p99)} | ${(row.samples.length / row.seconds).toFixed(0)} | ${perCall(row.clientCpuMs)} | ${perCall(row.serverCpuMs)} | ${row.mismatches} |`,
    );
  }
}

/** The issue's goals, as ratios of this run's rows; "—" where a row is missing. */
function printGoals(rows: Row[], database: "PGlite" | "PostgreSQL" | "unknown") {
  const find = (name: string, clients: number, bytes?: number) =>
    rows.find((r) => r.name === name && r.clients === clients && r.bytes === bytes);
  const p50 = (row: Row) => stats(row.samples).p50;
  const rate = (row: Row) => row.samples.length / row.seconds;
  type Goal = { label: string; goal: string; met: (ratio: number) => boolean };
  const cell = (ratio: number | undefined, goal: Goal) =>
    ratio === undefined ? "—" : `${ratio.toFixed(2)}× (${goal.met(ratio) ? "met" : "not met"})`;
  const line = (goal: Goal, ratioAt: (clients: number) => number | undefined) =>
    console.log(`| ${goal.label} | ${cell(ratioAt(1), goal)} | ${cell(ratioAt(8), goal)} | ${goal.goal} |`);
  const ratio =
    (a: string, b: string, of: (row: Row) => number, bytes?: number) =>
    (clients: number): number | undefined => {
      const x = find(a, clients, bytes);
      const y = find(b, clients, bytes);
      return x && y ? of(x) / of(y) : undefined;
    };
  const gw = "gateway /mcp";
  const perServer = "gateway /mcp/servers/…";
  const rateFloor = database === "PostgreSQL" ? 0.8 : 1.0;
  const within5 = (r: number) => r >= 0.95 && r <= 1.05;

  console.log(`\nGoals (${database} database):\n`);
  console.log("| ratio | 1 client | 8 clients | goal |");
  console.log("|---|---|---|---|");
  line({ label: "/mcp p50 ÷ mcp-hub p50", goal: "≤ 1.1×", met: (r) => r <= 1.1 }, ratio(gw, "mcp-hub", p50));
  line(
    {
      label: "/mcp calls/s ÷ mcp-hub calls/s",
      goal:
        database === "unknown"
          ? "≥ 1.0× on PGlite, ≥ 0.8× on PostgreSQL (judged here as PGlite)"
          : `≥ ${rateFloor.toFixed(1)}× on ${database}`,
      met: (r) => r >= rateFloor,
    },
    ratio(gw, "mcp-hub", rate),
  );
  line(
    { label: "64 KiB: /mcp p50 ÷ mcp-hub p50", goal: "≤ 1.2×", met: (r) => r <= 1.2 },
    ratio(gw, "mcp-hub", p50, LARGE_BYTES),
  );
  line(
    { label: "/mcp/servers/local-tools p50 ÷ /mcp p50", goal: "within 5% (0.95–1.05×)", met: within5 },
    ratio(perServer, gw, p50),
  );
  line(
    {
      label: "/mcp/servers/local-tools calls/s ÷ /mcp calls/s",
      goal: "within 5% (0.95–1.05×)",
      met: within5,
    },
    ratio(perServer, gw, rate),
  );
}

// ─── run ───────────────────────────────────────────────────────────────────────────────────────

async function main() {
  const { values } = parseArgs({
    options: { url: { type: "string" }, key: { type: "string" }, postgres: { type: "boolean" } },
  });
  const database = values.url ? "unknown" : values.postgres ? "PostgreSQL" : "PGlite";
  console.log(
    `bench:gateway — node ${process.version}, ${values.url ? "the given Switchboard's" : database} database, ${CALLS} calls per client after ${WARMUP} warm-up, short and ${LARGE_BYTES / 1024} KiB echoes`,
  );
  const rows: Row[] = [];
  const problems: string[] = [];
  const report = (problem: string) => {
    problems.push(problem);
    console.log(problem);
  };
  try {
    const targets: Target[] = [];
    const attempt = async (name: string, start: () => Promise<Target | Target[]>) => {
      try {
        targets.push(...[await start()].flat());
      } catch (error) {
        report(`${name}: could not start: ${messageOf(error)}`);
      }
    };
    await attempt("direct stdio", directStdio);
    await attempt("direct HTTP", directHttp);
    await attempt("mcp-proxy", mcpProxy);
    await attempt("mcp-hub", mcpHub);
    await attempt("gateway", () =>
      gateway(values, async () => {
        if (!values.postgres || values.url) return undefined;
        const postgres = await startPostgres();
        cleanup.push(() => postgres.stop());
        return createTestDatabase(postgres.url);
      }),
    );

    const failed = new Set<string>();
    for (const bytes of [undefined, LARGE_BYTES]) {
      for (const clients of [1, 8]) {
        for (const target of targets) {
          if (failed.has(target.name)) continue;
          try {
            rows.push(await measure(target, clients, bytes));
          } catch (error) {
            failed.add(target.name);
            const round = `${clients} client${clients > 1 ? "s" : ""}${bytes ? `, ${bytes / 1024} KiB` : ""}`;
            report(
              `${target.name}: failed while measuring (${round}), not measured further: ${messageOf(error)}`,
            );
          }
        }
      }
    }
  } finally {
    for (const undo of cleanup.reverse()) await undo().catch(() => {});
  }

  printTable(
    "Echo of a short token:",
    rows.filter((r) => r.bytes === undefined),
  );
  printTable(
    `Echo of ${LARGE_BYTES / 1024} KiB:`,
    rows.filter((r) => r.bytes === LARGE_BYTES),
  );
  printGoals(rows, database);
  if (problems.length > 0)
    console.log(`\nNot measured in full:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  if (rows.some((r) => r.mismatches > 0)) {
    console.error("Some results did not match their request.");
    process.exitCode = 1;
  }
}

await main();
