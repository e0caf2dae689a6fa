// npm run bench:hand-off — what a gateway session's request costs when it lands on a replica that
// does not hold the session and is handed to the one that does (lib/gateway/http/hand-off), against
// the same request sent to the holder itself. Two Switchboard processes (`node server.mjs`, needs
// `next build`) on a throwaway PostgreSQL (the test suite's: Debian's postgresql); the demo
// local-tools `echo`, classified read. Each path: SDK clients (1, then 8 at once), each with its own
// session opened on replica A; "direct" sends every request to A, "handed off" sends every request
// after initialize to B. Every answer is checked to be its own request's text.
// BENCH_CALLS (per client, default 300), BENCH_WARMUP (per path, default 200).
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createAgent, type SwitchboardProcess, startCluster } from "../tests/fixtures/cluster";

const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const root = process.cwd();

async function main() {
  console.log("starting PostgreSQL and two Switchboard processes…");
  const cluster = await startCluster({ processes: 2 });
  try {
    const [a, b] = cluster.processes as [SwitchboardProcess, SwitchboardProcess];
    const key = await prepare(a);
    console.log(`\n${CALLS} calls per client after ${WARMUP} warm-up calls; p50/p95 in ms\n`);
    console.log("path          clients   p50     p95     calls/s");
    for (const clients of [1, 8]) {
      for (const [label, target] of [
        ["direct", a],
        ["handed off", b],
      ] as const) {
        const figures = await measure(a, target, key, clients);
        console.log(
          `${label.padEnd(14)}${String(clients).padEnd(10)}${figures.p50.toFixed(2).padEnd(8)}${figures.p95
            .toFixed(2)
            .padEnd(8)}${figures.perSecond.toFixed(0)}`,
        );
      }
    }
  } finally {
    await cluster.stop();
  }
}

/** The demo local-tools server on the cluster, its echo a read, and an agent's key granted it. */
async function prepare(proc: SwitchboardProcess): Promise<string> {
  const registered = await proc.api("POST", "/api/v1/servers", {
    name: "local-tools",
    transport: "stdio",
    command: "node",
    args: ["--import", "tsx", path.join(root, "demo-servers", "local-tools.ts")],
    cwd: root,
  });
  if (registered.status !== 201) throw new Error(`local-tools not registered: ${await registered.text()}`);
  let toolId: string | undefined;
  for (let tries = 0; !toolId; tries++) {
    if (tries > 240) throw new Error("local-tools__echo was not listed within 60 s");
    const res = await proc.api("GET", "/api/v1/tools?q=local-tools__echo");
    const { tools } = (await res.json()) as { tools: Array<{ id: string; gatewayName: string }> };
    toolId = tools.find((tool) => tool.gatewayName === "local-tools__echo")?.id;
    if (!toolId) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const classified = await proc.api("PATCH", `/api/v1/tools/${toolId}`, { effect: "read" });
  if (classified.status !== 200) throw new Error(`echo not classified: ${await classified.text()}`);
  return createAgent(proc, "bench-agent", ["local-tools__echo"]);
}

/** A session opened on `holder`, every later request sent to `target`. */
async function connect(holder: SwitchboardProcess, target: SwitchboardProcess, key: string): Promise<Client> {
  let initialized = false;
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", holder.url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const to = initialized ? target : holder;
      return fetch(new URL(url.pathname + url.search, to.url), init);
    },
  });
  const client = new Client({ name: "bench-hand-off", version: "1.0.0" });
  await client.connect(transport);
  initialized = true;
  return client;
}

async function echo(client: Client, text: string): Promise<void> {
  const result = (await client.callTool({
    name: "local-tools__echo",
    arguments: { text },
  })) as CallToolResult;
  const answer = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  if (result.isError || !answer.includes(text)) throw new Error(`a wrong answer for ${text}: ${answer}`);
}

async function measure(holder: SwitchboardProcess, target: SwitchboardProcess, key: string, clients: number) {
  const sessions = await Promise.all(Array.from({ length: clients }, () => connect(holder, target, key)));
  try {
    let n = 0;
    await Promise.all(
      sessions.map(async (client) => {
        for (let i = 0; i < Math.ceil(WARMUP / clients); i++) await echo(client, `warm-${n++}`);
      }),
    );
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      sessions.map(async (client, c) => {
        for (let i = 0; i < CALLS; i++) {
          const at = performance.now();
          await echo(client, `call-${c}-${i}`);
          latencies.push(performance.now() - at);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((x, y) => x - y);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return { p50: at(0.5), p95: at(0.95), perSecond: latencies.length / seconds };
  } finally {
    await Promise.all(sessions.map((client) => client.close()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
