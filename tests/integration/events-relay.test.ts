import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { events, tenants } from "@/db/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import type { RecordedEvent, SwitchboardEvent } from "@/lib/events/event-types";
import { EventHub } from "@/lib/events/hub";
import type { EventRelay } from "@/lib/events/relay";
import { openTestDatabase } from "../fixtures/databases";
import { createTestDatabase } from "../fixtures/postgres-server";

/*
 * Events between processes. Each "process" is an EventHub with its own database handle and relay,
 * as each `next start` has — the in-process bus is never shared, so whatever B hears came through
 * PostgreSQL (LISTEN/NOTIFY and the events table).
 */

type Process = {
  name: string;
  handle: DatabaseHandle;
  hub: EventHub;
  relay: EventRelay;
  seen: RecordedEvent[];
};

const health = (n: number): SwitchboardEvent => ({
  type: "server.health_checked",
  serverId: "srv-1",
  serverName: "files",
  ok: n % 2 === 0,
  latencyMs: n,
});

async function eventually(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const idsOf = (list: RecordedEvent[]) => list.map((e) => e.id);

/**
 * Proves nothing more arrived without waiting a fixed time: `from` records one more event and the
 * test waits until `to` has it. Delivery is in order, so whatever `to` was going to receive before
 * it (a duplicate, a late copy) has arrived by then; returns the sentinel.
 */
async function sentinel(from: Process, to: Process, tenantId: string): Promise<RecordedEvent> {
  const marker = await from.hub.record(from.handle.db, { tenantId, event: health(1_000) });
  await eventually(() => idsOf(to.seen).includes(marker.id), `${to.name} to receive ${from.name}'s sentinel`);
  return marker;
}

async function startProcess(
  name: string,
  handle: DatabaseHandle,
  sweepIntervalMs = 60_000,
): Promise<Process> {
  const hub = new EventHub();
  const seen: RecordedEvent[] = [];
  hub.subscribe((event) => seen.push(event));
  const relay = await hub.startRelay(handle, { sweepIntervalMs });
  return { name, handle, hub, relay, seen };
}

describe("events across processes on PostgreSQL", () => {
  let url: string;
  let adminUrl: string;
  let tenantId: string;
  let a: Process;
  let b: Process;

  beforeAll(async () => {
    adminUrl = inject("postgresUrl");
    url = await createTestDatabase(adminUrl);
    const first = await openDatabase({ driver: "postgres", url });
    const [tenant] = await first.db.insert(tenants).values({ slug: "relay", name: "Relay" }).returning();
    tenantId = tenant?.id ?? "";
    await first.close();
  });

  afterEach(async () => {
    await a?.handle.close();
    await b?.handle.close();
  });

  const open = async (sweepIntervalMs?: number) => {
    a = await startProcess("A", await openDatabase({ driver: "postgres", url }), sweepIntervalMs);
    b = await startProcess("B", await openDatabase({ driver: "postgres", url }), sweepIntervalMs);
  };

  it("delivers an event recorded on A to B's subscribers, in order, exactly once (and back)", async () => {
    await open();
    const recorded: RecordedEvent[] = [];
    for (let i = 0; i < 20; i++)
      recorded.push(await a.hub.record(a.handle.db, { tenantId, event: health(i) }));
    await eventually(() => b.seen.length >= 20, "B to receive 20 events");
    expect(idsOf(b.seen)).toEqual(idsOf(recorded));
    expect(b.seen[3]).toEqual(recorded[3]);
    // A published its own events at once, and its relay did not publish them a second time.
    expect(idsOf(a.seen)).toEqual(idsOf(recorded));

    const back = await b.hub.record(b.handle.db, { tenantId, event: health(99) });
    await eventually(() => a.seen.length === 21, "A to receive B's event");
    expect(a.seen.at(-1)).toEqual(back);

    // One sentinel each way: nothing arrived twice before them.
    const fromA = await sentinel(a, b, tenantId);
    const fromB = await sentinel(b, a, tenantId);
    const expected = [...idsOf(recorded), back.id, fromA.id, fromB.id];
    expect(idsOf(a.seen)).toEqual(expected);
    expect(idsOf(b.seen)).toEqual(expected);
  });

  it("delivers a concurrent burst exactly once", async () => {
    await open();
    const recorded = await Promise.all(
      Array.from({ length: 200 }, (_, i) => a.hub.record(a.handle.db, { tenantId, event: health(i) })),
    );
    await eventually(() => b.seen.length >= 200, "B to receive the burst");
    const marker = await sentinel(a, b, tenantId);
    expect(b.seen).toHaveLength(201);
    expect(b.seen.at(-1)?.id).toBe(marker.id);
    expect(new Set(idsOf(b.seen))).toEqual(new Set([...idsOf(recorded), marker.id]));
  });

  it("publishes an event recorded in a transaction only after commit, on every process; never after rollback", async () => {
    await open();
    let outside: RecordedEvent | undefined;
    const inTx = await a.handle.db.transaction(async (tx) => {
      const event = await a.hub.record(tx, { tenantId, event: health(1) });
      // A sentinel recorded outside the transaction, after it, reaches both processes: had the
      // event inside been published early, it would have been seen first.
      outside = await sentinel(a, b, tenantId);
      // Not committed yet: a waiter woken now would read the old state.
      expect(idsOf(a.seen)).toEqual([outside.id]);
      expect(idsOf(b.seen)).toEqual([outside.id]);
      return event;
    });
    await eventually(() => a.seen.length === 2 && b.seen.length === 2, "both processes to publish it");
    expect(a.seen[1]).toEqual(inTx);
    expect(b.seen[1]).toEqual(inTx);

    await expect(
      a.handle.db.transaction(async (tx) => {
        await a.hub.record(tx, { tenantId, event: health(2) });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const after = await a.hub.record(a.handle.db, { tenantId, event: health(3) });
    await eventually(() => b.seen.length === 3, "B to receive the next event");
    expect(idsOf(a.seen)).toEqual([outside?.id, inTx.id, after.id]);
    expect(idsOf(b.seen)).toEqual([outside?.id, inTx.id, after.id]);
  });

  it("catches up after its LISTEN connection dropped, from the last id seen", async () => {
    await open();
    const before = await a.hub.record(a.handle.db, { tenantId, event: health(0) });
    await eventually(() => b.seen.length === 1, "B to receive the first event");
    const listensBefore = b.relay.listens;

    // Drop every LISTEN connection and keep new connections out while A records: those
    // notifications are lost for good, only the table has the events.
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    const dbName = new URL(url).pathname.slice(1);
    try {
      await admin.unsafe(`alter database "${dbName}" allow_connections false`);
      const killed = await admin`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = ${dbName} and query ilike 'listen%'`;
      expect(killed.length).toBe(2);
      const missed: RecordedEvent[] = [];
      for (let i = 1; i <= 5; i++)
        missed.push(await a.hub.record(a.handle.db, { tenantId, event: health(i) }));
      // No wait needed: B has no LISTEN connection (none re-established yet) and no sweep due
      // (60 s), so nothing can reach it until connections are allowed again.
      expect(b.relay.listens).toBe(listensBefore);
      expect(idsOf(b.seen)).toEqual([before.id]);
      await admin.unsafe(`alter database "${dbName}" allow_connections true`);

      await eventually(() => b.seen.length === 6, "B to catch up", 30_000);
      expect(b.relay.listens).toBeGreaterThan(listensBefore);
      expect(idsOf(b.seen)).toEqual([before.id, ...idsOf(missed)]);

      // And it is live again.
      const later = await a.hub.record(a.handle.db, { tenantId, event: health(7) });
      await eventually(() => b.seen.length === 7, "B to receive a live event again");
      expect(b.seen.at(-1)?.id).toBe(later.id);
      const fromA = await sentinel(a, b, tenantId);
      const fromB = await sentinel(b, a, tenantId);
      expect(idsOf(b.seen)).toEqual([before.id, ...idsOf(missed), later.id, fromA.id, fromB.id]);
      expect(idsOf(a.seen)).toEqual([before.id, ...idsOf(missed), later.id, fromA.id, fromB.id]);
    } finally {
      await admin.unsafe(`alter database "${dbName}" allow_connections true`).catch(() => {});
      await admin.end();
    }
  });

  it("finds an event whose NOTIFY never happened on its next sweep", async () => {
    await open(200);
    // A recorder that crashed between INSERT and NOTIFY.
    const [row] = await a.handle.db
      .insert(events)
      .values({
        tenantId,
        type: "server.health_checked",
        serverId: "srv-1",
        callId: null,
        data: {
          serverId: "srv-1",
          serverName: "files",
          ok: true,
          latencyMs: 1,
        },
      })
      .returning();
    await eventually(() => b.seen.length === 1 && a.seen.length === 1, "the sweeps to find it", 5_000);
    expect(b.seen[0]?.id).toBe(row?.id);
    expect(b.seen[0]).toMatchObject({ type: "server.health_checked", serverName: "files", tenantId });
  });

  it("stops its relay when the database is closed", async () => {
    await open();
    // A third process still listening is the sentinel: once it has A's events, so would B.
    const c = await startProcess("C", await openDatabase({ driver: "postgres", url }));
    try {
      await b.handle.close();
      await a.hub.record(a.handle.db, { tenantId, event: health(1) });
      await sentinel(a, c, tenantId);
      expect(c.seen).toHaveLength(2);
      expect(b.seen).toHaveLength(0);
    } finally {
      await c.handle.close();
    }
  });
});

describe("events on PGlite (one process)", () => {
  let handle: DatabaseHandle;
  let tenantId: string;
  beforeAll(async () => {
    handle = await openTestDatabase("pglite");
    const [tenant] = await handle.db.insert(tenants).values({ slug: "pg", name: "PG" }).returning();
    tenantId = tenant?.id ?? "";
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("records without a relay (publishes at once), and with one waits for the commit", async () => {
    const hub = new EventHub();
    const seen: RecordedEvent[] = [];
    hub.subscribe((event) => seen.push(event));
    const plain = await hub.record(handle.db, { tenantId, event: health(1) });
    const noRelayTx = await handle.db.transaction((tx) => hub.record(tx, { tenantId, event: health(2) }));
    expect(idsOf(seen)).toEqual([plain.id, noRelayTx.id]);

    await hub.startRelay(handle);
    const inTx = await handle.db.transaction(async (tx) => {
      const event = await hub.record(tx, { tenantId, event: health(3) });
      expect(idsOf(seen)).not.toContain(event.id);
      return event;
    });
    await eventually(() => seen.length === 3, "the committed event");
    expect(seen[2]).toEqual(inTx);
    const next = await hub.record(handle.db, { tenantId, event: health(4) });
    // Sentinel: one more through the relay (recorded in a transaction); nothing came twice before it.
    const last = await handle.db.transaction((tx) => hub.record(tx, { tenantId, event: health(5) }));
    await eventually(() => idsOf(seen).includes(last.id), "the sentinel");
    expect(idsOf(seen)).toEqual([plain.id, noRelayTx.id, inTx.id, next.id, last.id]);
    await hub.stopRelay();
  });
});
