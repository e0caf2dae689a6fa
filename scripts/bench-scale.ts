// npm run bench:scale — Switchboard at the scale of a real workspace, each figure beside its goal.
// Seeds its own data; needs `next build` (it runs `node server.mjs`). Four parts:
//   footprint  start-up to ready; resident memory idle, per idle stdio server connection (the demo
//              local-tools registered N times), per idle gateway session on /mcp
//   catalog    SERVERS streamable-HTTP servers × TOOLS tools, all served by ONE host process
//              (scripts/bench-scale/mcp-host.ts), registered through the REST API: the servers and
//              tools lists, the Servers and Tools pages, /mcp tools/list, a refresh of one server,
//              health checks of SERVERS and then HEALTH_SERVERS servers with echo calls meanwhile,
//              a restart with all of them registered
//   fanout     PostgreSQL, two processes: SSE subscribers on both, events written through both at
//              a set rate; delivery latency, lost and duplicated ids, one slow reader
//   approval   PostgreSQL, two processes: a call held for approval on A, approved through B's API;
//              decision → the downstream server receives the call
// Options: --postgres (footprint and catalog on a throwaway PostgreSQL too; fanout and approval
// always use one), --only <part>[,<part>]. Sizes: BENCH_SERVERS (200), BENCH_TOOLS (50),
// BENCH_HEALTH_SERVERS (1000), BENCH_HEALTH_TOOLS (5), BENCH_HEALTH_CONCURRENCY (20),
// BENCH_ECHO_CALLS (200), BENCH_STDIO_SERVERS (10), BENCH_SESSIONS (100), BENCH_SUBSCRIBERS (200),
// BENCH_EVENT_RATE (1000 events/s), BENCH_FANOUT_SECONDS (10), BENCH_APPROVALS (50).
// A part whose peer (PostgreSQL, the build) cannot start says so and the others go on. Every
// result is checked against its own request; any mismatch makes the exit status 1.
import { cpus, loadavg, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { createTestDatabase, startPostgres } from "../tests/fixtures/postgres-server";
import { approvalPart } from "./bench-scale/approval";
import { catalogPart } from "./bench-scale/catalog";
import { fanoutPart } from "./bench-scale/fanout";
import { footprintPart } from "./bench-scale/footprint";
import { type PostgresPair, startPostgresPair } from "./bench-scale/pair";
import type { Section } from "./bench-scale/report";
import { progress } from "./bench-scale/world";

const PARTS = ["footprint", "catalog", "fanout", "approval"] as const;
type Part = (typeof PARTS)[number];

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number, got ${process.env[name]}`);
  return value;
};

/** The machine is shared: how busy it was says how to read the figures. */
const loadAverage = () =>
  loadavg()
    .map((v) => v.toFixed(1))
    .join(" / ");

async function main() {
  const { values } = parseArgs({ options: { postgres: { type: "boolean" }, only: { type: "string" } } });
  const only = values.only?.split(",").map((p) => p.trim()) ?? [...PARTS];
  const unknown = only.filter((p) => !PARTS.includes(p as Part));
  if (unknown.length) throw new Error(`--only takes ${PARTS.join(", ")}; not ${unknown.join(", ")}`);
  const runs = (part: Part) => only.includes(part);
  const sizes = {
    servers: num("BENCH_SERVERS", 200),
    tools: Math.max(1, num("BENCH_TOOLS", 50)),
    healthServers: num("BENCH_HEALTH_SERVERS", 1000),
    healthTools: Math.max(1, num("BENCH_HEALTH_TOOLS", 5)),
    healthConcurrency: Math.max(1, num("BENCH_HEALTH_CONCURRENCY", 20)),
    echoCalls: num("BENCH_ECHO_CALLS", 200),
    stdioServers: num("BENCH_STDIO_SERVERS", 10),
    sessions: num("BENCH_SESSIONS", 100),
    subscribers: num("BENCH_SUBSCRIBERS", 200),
    eventRate: num("BENCH_EVENT_RATE", 1000),
    fanoutSeconds: num("BENCH_FANOUT_SECONDS", 10),
    approvals: num("BENCH_APPROVALS", 50),
  };
  console.log(
    `bench:scale — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ` +
      `${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadAverage()}; parts: ${only.join(", ")}; ` +
      Object.entries(sizes)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
  );

  const failed: string[] = [];
  let mismatches = 0;
  const run = async (title: string, part: () => Promise<Section[]>) => {
    try {
      for (const section of await part()) {
        section.print();
        mismatches += section.mismatches;
      }
    } catch (error) {
      failed.push(title);
      console.log(`\n### ${title}\n\nNot measured: ${(error as Error).stack ?? error}`);
    }
  };

  // One throwaway PostgreSQL server for the run, a fresh database per part.
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  let postgresProblem: unknown;
  const database = async (): Promise<string> => {
    if (postgresProblem) throw new Error(`PostgreSQL could not start: ${(postgresProblem as Error).message}`);
    try {
      postgres ??= await startPostgres();
    } catch (error) {
      postgresProblem = error;
      throw new Error(`PostgreSQL could not start: ${(error as Error).message}`);
    }
    return createTestDatabase(postgres.url);
  };
  const databaseName = values.postgres ? "PostgreSQL" : "PGlite";
  let pair: PostgresPair | undefined;
  try {
    if (runs("footprint")) {
      await run("Footprint", async () =>
        footprintPart({
          databaseUrl: values.postgres ? await database() : undefined,
          databaseName,
          ...sizes,
        }),
      );
    }
    if (runs("catalog")) {
      await run("Catalog", async () =>
        catalogPart({ databaseUrl: values.postgres ? await database() : undefined, databaseName, ...sizes }),
      );
    }
    if (runs("fanout") || runs("approval")) {
      try {
        progress("starting two Switchboard processes on one PostgreSQL database");
        pair = await startPostgresPair(await database());
      } catch (error) {
        for (const part of ["fanout", "approval"] as const) {
          if (!runs(part)) continue;
          failed.push(part);
          console.log(`\n### ${part}\n\nNot measured: ${(error as Error).message}`);
        }
      }
      if (pair && runs("fanout")) await run("Live fan-out", () => fanoutPart(pair as PostgresPair, sizes));
      if (pair && runs("approval")) await run("Approval", () => approvalPart(pair as PostgresPair, sizes));
    }
  } finally {
    await pair?.stop().catch(() => {});
    await postgres?.stop().catch(() => {});
  }
  console.log(
    `\nLoad average at the end: ${loadAverage()}. ${mismatches} mismatched results in all.${failed.length ? ` Not measured: ${failed.join(", ")}.` : ""}`,
  );
  if (mismatches > 0 || failed.length > 0) process.exitCode = 1;
}

await main();
