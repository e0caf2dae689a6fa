// bench:scale, footprint part: start-up to ready, then the server process's resident memory idle,
// per idle stdio server connection and per idle gateway session.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { residentMiB } from "../bench-common";
import { mib, ms, Section } from "./report";
import {
  agentForAll,
  inParallel,
  metricSum,
  progress,
  rest,
  root,
  type Switchboard,
  sleep,
  startSwitchboard,
} from "./world";

export type FootprintOptions = {
  databaseUrl: string | undefined;
  databaseName: string;
  stdioServers: number;
  sessions: number;
};

/** Long enough for start-up work and lazy allocations to settle before memory is read. */
const SETTLE_MS = 5_000;

export async function footprintPart(options: FootprintOptions): Promise<Section[]> {
  const section = new Section(`Footprint (${options.databaseName})`);
  let sb: Switchboard | undefined;
  const clients: Client[] = [];
  try {
    sb = await startSwitchboard({ name: "footprint", databaseUrl: options.databaseUrl });
    const { proc } = sb;
    section.row("start-up: spawn → /api/v1/health/ready says ready (empty database)", ms(sb.readyMs));
    const opened = logGap(proc.log(), "listening on", "database ready");
    if (opened !== undefined)
      section.row("… of which: listening → database ready (migrated), from its log", ms(opened));
    await sleep(SETTLE_MS);
    const idle = residentMiB(proc.pid);
    if (!idle) throw new Error("no /proc: resident memory cannot be read here");
    section.row("resident memory of the server process, idle", mib(idle.own));
    const [heap, external] = await Promise.all([
      metricSum(proc, "nodejs_heap_size_used_bytes"),
      metricSum(proc, "nodejs_external_memory_bytes"),
    ]);
    section.row(
      "… of which V8 heap in use · external (array buffers, WebAssembly memory), from /metrics",
      `${mib(heap / 2 ** 20)} · ${mib(external / 2 ** 20)}`,
    );

    // ── idle stdio server connections: the demo local-tools, as the instance policy allows it ──
    const n = options.stdioServers;
    if (n > 0) {
      progress(`footprint: ${n} stdio servers`);
      const args = ["--import", "tsx", path.join(root, "demo-servers", "local-tools.ts")];
      for (let i = 0; i < n; i++) {
        await rest(proc, "POST", "/api/v1/servers", {
          name: `local-tools-${i}`,
          transport: "stdio",
          command: "node",
          args,
          cwd: root,
        });
      }
      const deadline = Date.now() + 60_000 + n * 5_000;
      for (;;) {
        const { servers } = await rest<{ servers: { status: string }[] }>(proc, "GET", "/api/v1/servers");
        if (servers.filter((server) => server.status === "ready").length === n) break;
        if (Date.now() > deadline) throw new Error(`${n} stdio servers were not all connected in time`);
        await sleep(500);
      }
      await sleep(SETTLE_MS);
      const withStdio = residentMiB(proc.pid);
      if (withStdio) {
        section.row(
          `per idle stdio server connection (${n} connected): server process · with its child`,
          `${mib((withStdio.own - idle.own) / n)} · ${mib((withStdio.tree - idle.tree) / n)}`,
        );
      }
    }

    // ── idle gateway sessions (initialized, each with its GET stream open, as SDK clients keep them) ──
    const m = options.sessions;
    if (m > 0) {
      progress(`footprint: ${m} gateway sessions`);
      const key = await agentForAll(proc);
      const before = residentMiB(proc.pid);
      const transports: StreamableHTTPClientTransport[] = [];
      await inParallel(
        Array.from({ length: m }, (_, i) => i),
        8,
        async () => {
          const client = new Client({ name: "bench-scale", version: "0" });
          const transport = new StreamableHTTPClientTransport(new URL(`${proc.url}/mcp`), {
            requestInit: { headers: { Authorization: `Bearer ${key}` } },
          });
          await client.connect(transport);
          clients.push(client);
          transports.push(transport);
        },
      );
      const ids = new Set(transports.map((t) => t.sessionId));
      if (ids.size !== m || ids.has(undefined)) section.mismatches += m - ids.size;
      await sleep(SETTLE_MS);
      const after = residentMiB(proc.pid);
      if (before && after)
        section.row(`per idle gateway session on /mcp (${m} open)`, mib((after.own - before.own) / m));
    }
    section.note(
      "Resident memory is RSS from /proc/<pid>/stat, read after 5 s of quiet; the per-item figures divide the growth, so " +
        "garbage the process had not yet collected moves them (a few MiB over the whole).",
    );
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await sb?.stop().catch(() => {});
  }
  return [section];
}

/** ms between the first log lines whose message starts with `from` and `to` (JSON lines, pino's `time`). */
function logGap(log: string, from: string, to: string): number | undefined {
  const timeOf = (prefix: string) => {
    for (const line of log.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const entry = JSON.parse(line) as { msg?: string; time?: string };
        if (entry.msg?.startsWith(prefix) && entry.time) return Date.parse(entry.time);
      } catch {}
    }
    return undefined;
  };
  const [start, end] = [timeOf(from), timeOf(to)];
  return start === undefined || end === undefined ? undefined : end - start;
}
