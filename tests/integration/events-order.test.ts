import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as streamRoute } from "@/app/api/v1/events/stream/route";
import { events, tenants } from "@/db/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import type { SwitchboardEvent } from "@/lib/events/event-types";
import { EventHub } from "@/lib/events/hub";
import { recordEvent } from "@/lib/events/record-event";
import { StableFeed } from "@/lib/events/stable-feed";
import { type ProcessDatabase, setProcessDatabase } from "@/lib/runtime/process-db";
import { createTestApiKey, drivers, openTestDatabase } from "../fixtures/databases";
import { createTestDatabase } from "../fixtures/postgres-server";
import { SseReader } from "../fixtures/sse-reader";

/*
 * The stream's promise with several writers: every event of the workspace once, in id order,
 * whatever the reader's reconnections. This process (the route's process database and hub) writes,
 * and on PostgreSQL so does a second "process" (its own handle and hub, as another replica has);
 * some writes are inside transactions that stay open a moment, so ids commit out of order. Readers
 * drop their connection every 150 ms and resume with Last-Event-ID, as EventSource does; what they
 * got is compared with the table.
 */

const origin = "http://localhost";
const noParams = { params: Promise.resolve({}) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const health = (n: number): SwitchboardEvent => ({
  type: "server.health_checked",
  serverId: "srv-order",
  serverName: "order",
  ok: true,
  latencyMs: n,
});

type Writer = (n: number) => Promise<unknown>;

/** Records `count` events through the writers, `parallel` at a time; some in a transaction held open. */
async function writeEvents(
  writers: Array<{ handle: DatabaseHandle; record: Writer; inTx: Writer }>,
  count: number,
) {
  let next = 0;
  const parallel = 16;
  await Promise.all(
    Array.from({ length: parallel }, async (_, lane) => {
      while (next < count) {
        const n = next++;
        const writer = writers[(n + lane) % writers.length];
        if (!writer) continue;
        await (n % 3 === 0 ? writer.inTx(n) : writer.record(n));
      }
    }),
  );
}

/** A reader that reconnects every `everyMs`, resuming with Last-Event-ID; returns the ids it got. */
function reconnectingReader(headers: Record<string, string>, everyMs: number) {
  const received: number[] = [];
  let stopped = false;
  let reconnects = 0;
  const done = (async () => {
    let lastEventId = "0";
    while (!stopped) {
      const abort = new AbortController();
      const res = await streamRoute(
        new Request(`${origin}/api/v1/events/stream`, {
          headers: { ...headers, "last-event-id": lastEventId },
          signal: abort.signal,
        }),
        noParams,
      );
      expect(res.status).toBe(200);
      const reader = new SseReader(res.body as ReadableStream<Uint8Array>);
      const until = Date.now() + everyMs;
      for (;;) {
        const message = await reader.next(Math.max(1, until - Date.now()));
        if (!message) break;
        if (message.comment !== undefined || message.event === "gap") continue;
        received.push((JSON.parse(message.data) as { id: number }).id);
      }
      if (reader.lastEventId) lastEventId = reader.lastEventId;
      abort.abort();
      await reader.cancel();
      reconnects++;
    }
  })();
  return {
    received,
    get reconnects() {
      return reconnects;
    },
    async stop() {
      stopped = true;
      await done;
    },
  };
}

describe.each(drivers)("event stream order with several writers on %s", (driver) => {
  let handle: ProcessDatabase;
  let other: DatabaseHandle | undefined;
  let otherHub: EventHub | undefined;
  let headers: Record<string, string>;

  beforeAll(async () => {
    if (driver === "postgres") {
      const url = await createTestDatabase(inject("postgresUrl"));
      handle = await setProcessDatabase(await openDatabase({ driver: "postgres", url }));
      other = await openDatabase({ driver: "postgres", url });
      otherHub = new EventHub();
      await otherHub.startRelay(other);
    } else {
      handle = await setProcessDatabase(await openTestDatabase("pglite"));
    }
    headers = { "x-api-key": await createTestApiKey(handle, ["admin"]) };
  });

  afterAll(async () => {
    await other?.close();
    await handle?.close();
  });

  it("delivers every event once, in id order, to readers that reconnect every 150 ms", async () => {
    const tenantId = handle.defaultTenant.id;
    const writers = [
      {
        handle: handle as DatabaseHandle,
        record: (n: number) => recordEvent(handle.db, { tenantId, event: health(n) }),
        inTx: (n: number) =>
          handle.db.transaction(async (tx) => {
            await recordEvent(tx, { tenantId, event: health(n) });
            await sleep(n % 7);
          }),
      },
    ];
    if (other && otherHub) {
      const [db, hub] = [other.db, otherHub];
      writers.push({
        handle: other,
        record: (n: number) => hub.record(db, { tenantId, event: health(n) }),
        inTx: (n: number) =>
          db.transaction(async (tx) => {
            await hub.record(tx, { tenantId, event: health(n) });
            await sleep(n % 7);
          }),
      });
    }
    const readers = [reconnectingReader(headers, 150), reconnectingReader(headers, 150)];
    const count = 3_000;
    await writeEvents(writers, count);

    const table = (
      await handle.db
        .select({ id: events.id })
        .from(events)
        .where(eq(events.tenantId, tenantId))
        .orderBy(asc(events.id))
    ).map((row) => row.id);
    expect(table.length).toBeGreaterThanOrEqual(count);
    // Every reader catches up with the table (or the test times out); then compare exactly.
    const last = table.at(-1) as number;
    const deadline = Date.now() + 30_000;
    while (readers.some((r) => !r.received.includes(last)) && Date.now() < deadline) await sleep(50);
    await Promise.all(readers.map((reader) => reader.stop()));
    for (const reader of readers) {
      expect(reader.reconnects).toBeGreaterThan(3);
      const seen = new Set(reader.received);
      const lost = table.filter((id) => !seen.has(id));
      const duplicated = reader.received.length - seen.size;
      const outOfOrder = reader.received.filter(
        (id, i) => i > 0 && id < (reader.received[i - 1] ?? 0),
      ).length;
      expect({ lost: lost.length, duplicated, outOfOrder }).toEqual({
        lost: 0,
        duplicated: 0,
        outOfOrder: 0,
      });
      expect(reader.received).toEqual(table);
    }
  }, 120_000);
});

describe("the stable feed on PostgreSQL", () => {
  let a: DatabaseHandle;
  let b: DatabaseHandle;
  let tenantId: string;

  beforeAll(async () => {
    const url = await createTestDatabase(inject("postgresUrl"));
    a = await openDatabase({ driver: "postgres", url });
    b = await openDatabase({ driver: "postgres", url });
    const [tenant] = await a.db.insert(tenants).values({ slug: "feed", name: "Feed" }).returning();
    tenantId = tenant?.id ?? "";
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("holds an id back until every lower id has committed or rolled back, then delivers in id order", async () => {
    const hub = new EventHub();
    const feed = new StableFeed(a.db, "postgres", { pollIntervalMs: 2 });
    const got: number[] = [];
    const { unsubscribe } = await feed.subscribe((batch) => got.push(...batch.events.map((e) => e.id)));

    // B takes an id in a transaction it keeps open; another takes one and rolls back; A commits a higher one.
    const open = holdTransaction(b, hub, tenantId);
    const doomed = holdTransaction(b, hub, tenantId);
    const heldId = await open.id;
    const doomedId = await doomed.id;
    const later = await hub.record(a.db, { tenantId, event: health(1) });
    expect(later.id).toBeGreaterThan(Math.max(heldId, doomedId));

    // Many polls later, nothing at or above the open transaction's id has been delivered.
    const polls = feed.polls;
    feed.nudge();
    await eventually(() => feed.polls >= polls + 20, "20 polls");
    expect(got.filter((id) => id >= Math.min(heldId, doomedId))).toEqual([]);
    expect(feed.watermark).toBeLessThan(Math.min(heldId, doomedId));

    await doomed.end("rollback");
    await open.end("commit");
    feed.nudge();
    await eventually(() => got.includes(later.id), "the later event");
    expect(got.filter((id) => id >= Math.min(heldId, doomedId))).toEqual([heldId, later.id]);
    unsubscribe();
  });

  it("polls at once when nudged while idle, rather than at the idle poll", async () => {
    const hub = new EventHub();
    // An idle poll far longer than the wait below: an event delivered in time was nudged through.
    const feed = new StableFeed(a.db, "postgres", { idlePollMs: 120_000 });
    const got: number[] = [];
    const { unsubscribe } = await feed.subscribe((batch) => got.push(...batch.events.map((e) => e.id)));
    // Idle: the confirming polls after the first watermark are done, the long wait is pending.
    let polls = -1;
    while (polls !== feed.polls) {
      polls = feed.polls;
      await sleep(300);
    }

    const event = await hub.record(a.db, { tenantId, event: health(1) });
    feed.nudge();
    await eventually(() => got.includes(event.id), "the nudged event", 20_000);
    unsubscribe();
  });

  it("measures delivery latency: the stable feed against the live bus (printed, not asserted)", async () => {
    const hubA = new EventHub();
    const hubB = new EventHub();
    await hubA.startRelay(a);
    await hubB.startRelay(b);
    const feed = new StableFeed(a.db, "postgres");
    const committedAt = new Map<number, number>();
    const byB = new Set<number>();
    const fed: Array<{ id: number; at: number }> = [];
    const relayed = new Map<number, number>();
    hubA.subscribe((event) => relayed.set(event.id, performance.now()));
    const { unsubscribe } = await feed.subscribe((batch) => {
      for (const event of batch.events) fed.push({ id: event.id, at: performance.now() });
    });
    hubA.subscribe(() => feed.nudge());

    const count = 2_000;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async (_, lane) => {
        while (next < count) {
          const n = next++;
          const [hub, handle] = lane % 2 === 0 ? [hubA, a] : [hubB, b];
          const event = await hub.record(handle.db, { tenantId, event: health(n) });
          committedAt.set(event.id, performance.now());
          if (hub === hubB) byB.add(event.id);
        }
      }),
    );
    const elapsed = performance.now() - started;
    const lastId = Math.max(...committedAt.keys());
    await eventually(() => fed.some((e) => e.id === lastId), "the feed to catch up");
    unsubscribe();

    const mine = fed.filter((e) => committedAt.has(e.id));
    expect(mine.map((e) => e.id)).toEqual([...committedAt.keys()].sort((x, y) => x - y));
    const delays = (source: Array<[number, number]>) =>
      source.map(([id, at]) => at - (committedAt.get(id) ?? at)).sort((x, y) => x - y);
    const pct = (list: number[], p: number) => (list[Math.floor((list.length - 1) * p)] ?? 0).toFixed(1);
    const feedDelays = delays(mine.map((e) => [e.id, e.at]));
    const busDelays = delays([...relayed.entries()].filter(([id]) => byB.has(id)));
    console.log(
      `${count} events from two writers at ${Math.round((count / elapsed) * 1000)}/s — after commit, ` +
        `stable feed p50 ${pct(feedDelays, 0.5)} ms, p95 ${pct(feedDelays, 0.95)} ms, max ${pct(feedDelays, 1)} ms; ` +
        `live bus (own events at once, others' by NOTIFY) p50 ${pct(busDelays, 0.5)} ms, p95 ${pct(busDelays, 0.95)} ms; ` +
        `${feed.polls} polls`,
    );
    await hubA.stopRelay();
    await hubB.stopRelay();
  });
});

/** A transaction on `handle` that records one event and stays open until end() commits or rolls it back. */
function holdTransaction(handle: DatabaseHandle, hub: EventHub, tenantId: string) {
  let gotId: (id: number) => void = () => {};
  let finish: (how: "commit" | "rollback") => void = () => {};
  const id = new Promise<number>((resolve) => {
    gotId = resolve;
  });
  const decided = new Promise<"commit" | "rollback">((resolve) => {
    finish = resolve;
  });
  const done = handle.db
    .transaction(async (tx) => {
      gotId((await hub.record(tx, { tenantId, event: health(0) })).id);
      if ((await decided) === "rollback") throw new Error("rolled back on purpose");
    })
    .catch(() => {});
  return {
    id,
    async end(how: "commit" | "rollback") {
      finish(how);
      await done;
    },
  };
}

async function eventually(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}
