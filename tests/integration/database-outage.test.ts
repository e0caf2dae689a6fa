import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as readiness } from "@/app/api/v1/health/ready/route";
import { GET as liveness } from "@/app/api/v1/health/route";
import { GET as listServers } from "@/app/api/v1/servers/route";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import type { RecordedEvent } from "@/lib/events/event-types";
import { EventHub } from "@/lib/events/hub";
import { subscribeEvents } from "@/lib/events/record-event";
import { getDatabase } from "@/lib/runtime/process-db";
import { getServerRuntime } from "@/lib/runtime/server-runtime";
import { startRuntime } from "@/lib/runtime/start";
import { createTestDatabase, type PostgresServer, startPostgres } from "../fixtures/postgres-server";

/*
 * This process's runtime against a PostgreSQL server the test stops and starts (pg_ctl stop -m fast:
 * connections are cut, then the port refuses). A process started while the database is down starts
 * by itself once it is back; during an outage requests are answered 503 `database_unavailable` at
 * once, and the first request after it succeeds without waiting out a reconnect backoff.
 */

const apiKey = `sb_outage-${randomBytes(12).toString("hex")}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-outage-"));
let server: PostgresServer;
let databaseUrl: string;

const noParams = { params: Promise.resolve({}) };
const askServers = () =>
  listServers(
    new Request("http://127.0.0.1:3000/api/v1/servers", { headers: { authorization: `Bearer ${apiKey}` } }),
    noParams,
  );
type ReadinessBody = { status: string; checks: Record<string, { ok: boolean; reason?: string }> };
const askReady = async () => {
  const response = await readiness();
  return { status: response.status, body: (await response.json()) as ReadinessBody };
};

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  server = await startPostgres();
  databaseUrl = await createTestDatabase(server.url);
  vi.stubEnv("DATABASE_URL", databaseUrl);
  vi.stubEnv("SWITCHBOARD_DATA_DIR", dataDir);
  vi.stubEnv("SWITCHBOARD_BOOTSTRAP_API_KEY", apiKey);
  vi.stubEnv("SWITCHBOARD_SEED_DEMO", "false");
  vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
  // The outage is the point: its log lines are expected.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterAll(async () => {
  await (await getServerRuntime())?.stop();
  await (await getDatabase().catch(() => undefined))?.close();
  await server?.stop();
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a database outage", () => {
  it("a process started while PostgreSQL is down starts by itself once it is back", async () => {
    await server.halt();
    // Instrumentation awaits this: it must come back (and the server answer) while the database is down.
    await startRuntime();

    const notReady = await askReady();
    expect(notReady.status).toBe(503);
    expect(notReady.body.status).toBe("starting");
    expect(notReady.body.checks.database).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not reachable/),
    });
    expect(notReady.body.checks.pool?.ok).toBe(false);
    expect(liveness().status).toBe(200);
    const refused = await askServers();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("database_unavailable");

    await server.resume();
    const ready = await until(async () => {
      const answer = await askReady();
      return answer.status === 200 ? answer.body : undefined;
    }, "readiness after the database came back");
    expect(ready).toMatchObject({
      status: "ready",
      checks: { database: { ok: true }, relay: { ok: true }, pool: { ok: true } },
    });
    expect(await getServerRuntime()).toBeDefined();
    expect((await askServers()).status).toBe(200);
  });

  it("during a 5 s outage requests get 503 at once; afterwards the first ones succeed again", async () => {
    const seen: RecordedEvent[] = [];
    const unsubscribe = subscribeEvents((event) => seen.push(event));
    await server.halt();
    const during: { status: number; code?: string; ms: number }[] = [];
    const haltedAt = Date.now();
    while (Date.now() - haltedAt < 5_000) {
      const started = Date.now();
      const response = await askServers();
      const body = (await response.json()) as { error?: { code: string } };
      during.push({ status: response.status, code: body.error?.code, ms: Date.now() - started });
    }
    const degraded = await askReady();
    await server.resume();
    const resumedAt = Date.now();
    await until(async () => ((await askServers()).status === 200 ? true : undefined), "a request to succeed");
    const recoveryMs = Date.now() - resumedAt;
    const slowest = Math.max(...during.map((d) => d.ms));
    console.log(
      `[outage] ${during.length} requests during 5 s down (slowest ${slowest} ms); first success ${recoveryMs} ms after PostgreSQL was back`,
    );

    expect(during.length).toBeGreaterThan(1);
    expect(during.every((d) => d.status === 503 && d.code === "database_unavailable")).toBe(true);
    // Generous bounds, far from the figures they guard against (requests hung until ~15 s after the outage).
    expect(slowest).toBeLessThan(5_000);
    expect(recoveryMs).toBeLessThan(10_000);
    expect(degraded.status).toBe(503);
    expect(degraded.body.status).toBe("degraded");
    expect(degraded.body.checks.database?.ok).toBe(false);

    // The event relay listens again: an event another process records arrives here.
    let other: DatabaseHandle | undefined;
    try {
      other = await openDatabase({ driver: "postgres", url: databaseUrl });
      const [tenant] = await other.db.query.tenants.findMany({ limit: 1 });
      const recorded = await new EventHub().record(other.db, {
        tenantId: tenant?.id ?? "",
        event: {
          type: "server.health_checked",
          serverId: "s",
          serverName: "elsewhere",
          ok: true,
          latencyMs: 1,
        },
      });
      await until(
        async () => (seen.some((e) => e.id === recorded.id) ? true : undefined),
        "the other process's event through the relay",
        30_000,
      );
    } finally {
      unsubscribe();
      await other?.close();
    }
  });
});
