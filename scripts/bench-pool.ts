// npm run bench:pool — what the connection pool costs over a bare SDK client.
// Same stdio server for both (demo local-tools, `echo`): connection set-up time, then tools/call
// latency, calls interleaved one by one so drift on the machine hits both sides alike.
// BENCH_CALLS (default 500), BENCH_WARMUP (50), BENCH_SETUPS (5) override the counts.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ConnectionConfig } from "@/lib/upstream/connection-config";
import { ConnectionPool } from "@/lib/upstream/pool";

const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);
const SETUPS = Number(process.env.BENCH_SETUPS ?? 5);

const root = process.cwd();
const args = ["--import", "tsx", path.join(root, "demo-servers", "local-tools.ts")];
const config: ConnectionConfig = {
  id: "bench",
  tenantId: "bench",
  name: "local-tools",
  transport: "stdio",
  command: "node",
  args,
  cwd: root,
  env: {},
  url: null,
  headers: {},
  auth: { type: "none" },
  enabled: true,
  connectTimeoutMs: 30_000,
  callTimeoutMs: 30_000,
  healthIntervalSeconds: 3600,
  programPath: null,
  launchApprovedBy: null,
};

const newPool = () =>
  new ConnectionPool({ resolveValue: async (v) => (typeof v === "string" ? v : undefined) });

async function connectDirect(): Promise<Client> {
  const client = new Client({ name: "bench-direct", version: "0.0.0" }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: "node", args, cwd: root, stderr: "ignore" }));
  return client;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  // Nearest rank: the smallest sample with at least p % of samples at or below it.
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { p50: at(50), p95: at(95), p99: at(99), mean, max: sorted.at(-1) ?? Number.NaN };
}

const ms = (v: number) => `${v.toFixed(3)} ms`.padStart(12);

async function main() {
  console.log(
    `bench:pool — node ${process.version}, ${CALLS} calls after ${WARMUP} warm-up, ${SETUPS} set-ups`,
  );

  // Connection set-up: spawn + initialize handshake, until the client can call.
  const poolSetups: number[] = [];
  const directSetups: number[] = [];
  for (let i = 0; i < SETUPS; i++) {
    const pool = newPool();
    poolSetups.push(
      await time(async () => {
        await pool.upsert(config);
        await pool.getClient(config.id);
      }),
    );
    await pool.closeAll();
    let direct: Client | undefined;
    directSetups.push(
      await time(async () => {
        direct = await connectDirect();
      }),
    );
    await direct?.close();
  }

  const pool = newPool();
  await pool.upsert(config);
  await pool.getClient(config.id);
  const direct = await connectDirect();
  const viaPool = () => pool.callTool(config.id, "echo", { text: "bench" });
  const viaSdk = () => direct.callTool({ name: "echo", arguments: { text: "bench" } });

  for (let i = 0; i < WARMUP; i++) {
    await viaPool();
    await viaSdk();
  }
  const poolCalls: number[] = [];
  const directCalls: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    poolCalls.push(await time(viaPool));
    directCalls.push(await time(viaSdk));
  }
  await pool.closeAll();
  await direct.close();

  const rows = [
    ["tools/call via pool", stats(poolCalls)],
    ["tools/call direct SDK", stats(directCalls)],
    ["set-up via pool", stats(poolSetups)],
    ["set-up direct SDK", stats(directSetups)],
  ] as const;
  console.log(
    `\n${"".padEnd(24)}${["p50", "p95", "p99", "mean", "max"].map((h) => h.padStart(12)).join("")}`,
  );
  for (const [label, s] of rows) {
    console.log(`${label.padEnd(24)}${[s.p50, s.p95, s.p99, s.mean, s.max].map(ms).join("")}`);
  }
  const overhead = stats(poolCalls).p50 - stats(directCalls).p50;
  console.log(`\npool overhead at p50: ${overhead.toFixed(3)} ms per call`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
