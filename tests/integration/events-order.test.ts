import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as streamRoute } from "@/app/api/v1/events/stream/route";
import { events } from "@/db/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import type { SwitchboardEvent } from "@/lib/events/event-types";
import { EventHub } from "@/lib/events/hub";
import { recordEvent } from "@/lib/events/record-event";
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
