// npm run bench:gateway — what the /mcp gateway costs over talking to a server directly.
// The demo local-tools `echo`, four ways, each with 1 and then 8 concurrent clients:
//   direct stdio    SDK client → local-tools over stdio (8 callers share one connection, as the pool does)
//   direct HTTP     SDK clients → an `echo` MCP server over streamable HTTP (tiny wrapper, own process)
//   relay proxy     SDK clients → mcp-proxy (npm; streamable HTTP → stdio, relays and nothing else)
//                   → local-tools: what a proxy that does no work per call costs
//   gateway /mcp    SDK clients → Switchboard /mcp → pooled stdio local-tools; every call authorized,
//                   recorded and its result stored
//   gateway /mcp/servers/local-tools
//                   the same through the per-server endpoint (the server's own tool names)
// Every call echoes a unique token and the bench checks each answer is its own request's. On Linux
// it also prints the CPU each call cost the bench's clients and the serving processes (the server
// and its children, from /proc): on a machine with few cores, their sum bounds calls/s.
// Options: --url <switchboard> --key <principal gateway key> use a running Switchboard (echo must be
// granted and classified read); otherwise `node server.mjs` (needs `next build`) runs on a free port with a
// temp PGlite folder, or with --postgres on a throwaway PostgreSQL server (the test suite's: Debian's
// postgresql, see scripts/ensure-test-deps.sh). BENCH_CALLS (per client, default 1000), BENCH_WARMUP
// (per path, default 1000).
import { type ChildProcess, spawn } from "node:child_process";
import { setMaxListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestDatabase, startPostgres } from "../tests/fixtures/postgres-server";
import { freePort, processTreeCpuMs, stats, waitFor } from "./bench-common";

// Servers are measured warm, as they run in steady state (V8 optimizes a hot path only after some
// thousand runs): every path gets the same warm-up before it is measured.
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);

// The SDK's HTTP client adds an abort listener per request to its transport's long-lived signal;
// Node releases them as the requests are collected, but warns past 1,500 at once.
setMaxListeners(100_000);
const root = process.cwd();
const BOOTSTRAP_KEY = "sb_bench-bootstrap-key-0123456789abcdef";

type Caller = (text: string) => Promise<string>;
type Row = {
  name: string;
  clients: number;
  samples: number[];
  seconds: number;
  mismatches: number;
  /** CPU of this process (the clients) and of the serving process tree while measuring, in ms */
  clientCpuMs: number;
  serverCpuMs: number | undefined;
};

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? [])
    .map((c) => c.text ?? "")
    .join("");

function echoCaller(client: Client, name: string): Caller {
  return async (text) => textOf(await client.callTool({ name, arguments: { text } }));
}

/** `clients` callers, each making CALLS sequential calls; all run at once. */
async function measure(name: string, callers: Caller[], serverPid: number | undefined): Promise<Row> {
  for (const call of callers) for (let i = 0; i < WARMUP / callers.length; i++) await call(`warm-${i}`);
  const samples: number[] = [];
  let mismatches = 0;
  const serverCpuBefore = processTreeCpuMs(serverPid);
  const clientCpuBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    callers.map(async (call, c) => {
      for (let i = 0; i < CALLS; i++) {
        const token = `${name}-${c}-${i}-${Math.random().toString(36).slice(2)}`;
        const t0 = performance.now();
        const answer = await call(token);
        samples.push(performance.now() - t0);
        if (answer !== token) mismatches++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpuAfter = processTreeCpuMs(serverPid);
  return {
    name,
    clients: callers.length,
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

// ─── the three targets ─────────────────────────────────────────────────────────────────────────

const localTools = ["--import", "tsx", path.join(root, "demo-servers", "local-tools.ts")];

async function stdioClient(): Promise<{ client: Client; pid: number | undefined }> {
  const client = new Client({ name: "bench-stdio", version: "0" });
  const transport = new StdioClientTransport({
    command: "node",
    args: localTools,
    cwd: root,
    stderr: "ignore",
  });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined };
}

async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "bench-http", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The echo server over streamable HTTP, in its own process like the stdio one. */
async function startHttpEcho(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn("node", ["--import", "tsx", path.join(root, "scripts", "bench-http-echo.ts")], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(
    async () => ((await fetch(url, { method: "GET" })).status > 0 ? true : undefined),
    "the HTTP echo",
  );
  return { url, child };
}

/** mcp-proxy (a relay-only proxy from npm) serving local-tools over streamable HTTP at /mcp. */
async function startRelayProxy(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const bin = path.join(root, "node_modules", "mcp-proxy", "dist", "bin", "mcp-proxy.mjs");
  // No event store: neither the direct HTTP server nor the gateway keeps one by default. Its stderr
  // is dropped: it logs every session, and Node's listener-count warning for its request signals.
  const child = spawn(
    "node",
    [bin, "--host", "127.0.0.1", "--port", String(port), "--no-eventStore", "--", "node", ...localTools],
    { cwd: root, stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(
    async () => ((await fetch(url, { method: "GET" })).status > 0 ? true : undefined),
    "mcp-proxy",
  );
  return { url, child };
}

/** A Switchboard of our own (server.mjs), a principal with echo granted and classified read. */
async function startSwitchboard(
  databaseUrl: string | undefined,
): Promise<{ url: string; key: string; pid: number | undefined; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-bench-"));
  const child = spawn("node", [path.join(root, "server.mjs")], {
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
    stdio: ["ignore", "ignore", "inherit"],
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
  );
  const echoId = await waitFor(async () => {
    const { tools } = (await rest("GET", "/api/v1/tools?q=local-tools__echo")) as {
      tools: { id: string; gatewayName: string }[];
    };
    return tools.find((t) => t.gatewayName === "local-tools__echo")?.id;
  }, "the demo catalog");
  await rest("PATCH", `/api/v1/tools/${echoId}`, { effect: "read" });
  const { principal } = (await rest("POST", "/api/v1/principals", { name: "bench" })) as {
    principal: { id: string };
  };
  await rest("PUT", `/api/v1/principals/${principal.id}/grants`, { patterns: ["local-tools__echo"] });
  const { key } = (await rest("POST", `/api/v1/principals/${principal.id}/keys`, { name: "bench" })) as {
    key: string;
  };
  return {
    url: `${base}/mcp`,
    key,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ─── run ───────────────────────────────────────────────────────────────────────────────────────

async function main() {
  const { values } = parseArgs({
    options: { url: { type: "string" }, key: { type: "string" }, postgres: { type: "boolean" } },
  });
  const database = values.url ? "the given Switchboard's" : values.postgres ? "PostgreSQL" : "PGlite";
  console.log(
    `bench:gateway — node ${process.version}, ${database} database, ${CALLS} calls per client after ${WARMUP} warm-up`,
  );
  const rows: Row[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const stdio = await stdioClient();
    closers.push(() => stdio.client.close());
    const http = await startHttpEcho();
    closers.push(async () => http.child.kill("SIGTERM"));
    const relay = await startRelayProxy();
    closers.push(async () => relay.child.kill("SIGTERM"));
    let databaseUrl: string | undefined;
    if (values.postgres && !values.url) {
      const postgres = await startPostgres();
      closers.push(() => postgres.stop());
      databaseUrl = await createTestDatabase(postgres.url);
    }
    const switchboard =
      values.url && values.key
        ? { url: values.url, key: values.key, pid: undefined, stop: async () => {} }
        : await startSwitchboard(databaseUrl);
    closers.push(switchboard.stop);

    const httpClients = await Promise.all(Array.from({ length: 8 }, () => httpClient(http.url)));
    const relayClients = await Promise.all(Array.from({ length: 8 }, () => httpClient(relay.url)));
    const auth = { Authorization: `Bearer ${switchboard.key}` };
    const gatewayClients = await Promise.all(
      Array.from({ length: 8 }, () => httpClient(switchboard.url, auth)),
    );
    const perServerUrl = `${switchboard.url}/servers/local-tools`;
    const perServerClients = await Promise.all(
      Array.from({ length: 8 }, () => httpClient(perServerUrl, auth)),
    );
    closers.push(
      ...[...httpClients, ...relayClients, ...gatewayClients, ...perServerClients].map(
        (c) => () => c.close(),
      ),
    );

    for (const clients of [1, 8]) {
      const callers = (list: Client[], tool: string) =>
        list.slice(0, clients).map((c) => echoCaller(c, tool));
      const stdioCallers = Array.from({ length: clients }, () => echoCaller(stdio.client, "echo"));
      rows.push(await measure("direct stdio", stdioCallers, stdio.pid));
      rows.push(await measure("direct HTTP", callers(httpClients, "echo"), http.child.pid));
      rows.push(await measure("relay proxy", callers(relayClients, "echo"), relay.child.pid));
      rows.push(await measure("gateway /mcp", callers(gatewayClients, "local-tools__echo"), switchboard.pid));
      rows.push(await measure("gateway /mcp/servers/…", callers(perServerClients, "echo"), switchboard.pid));
    }
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
  }

  console.log(
    "\n| path | clients | p50 | p95 | p99 | calls/s | CPU/call: clients | CPU/call: server | mismatched results |",
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
  if (rows.some((r) => r.mismatches > 0)) {
    console.error("Some results did not match their request.");
    process.exitCode = 1;
  }
}

await main();
