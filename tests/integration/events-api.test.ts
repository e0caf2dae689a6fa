import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listEventsRoute } from "@/app/api/v1/events/route";
import { GET as streamRoute } from "@/app/api/v1/events/stream/route";
import { tenants } from "@/db/schema";
import type { RecordedEvent, SwitchboardEvent } from "@/lib/events/event-types";
import type { EventPage } from "@/lib/events/history";
import { recordEvent, stableFeedFor } from "@/lib/events/record-event";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import {
  createTestApiKey,
  createTestOperator,
  drivers,
  openProcessTestDatabase,
} from "../fixtures/databases";
import { payloads, SseReader } from "../fixtures/sse-reader";

/*
 * GET /api/v1/events and GET /api/v1/events/stream through their real route handlers (auth,
 * workspace scoping, validation), on both databases. Streams are read from the Response body.
 */

const origin = "http://localhost";
const noParams = { params: Promise.resolve({}) };

const health = (n: number, serverName = "files"): SwitchboardEvent => ({
  type: "server.health_checked",
  serverId: `id-${serverName}`,
  serverName,
  ok: true,
  latencyMs: n,
});
const callRequested = (callId: string): SwitchboardEvent => ({
  type: "call.requested",
  callId,
  serverId: "id-files",
  serverName: "files",
  tool: "files__read",
  effect: "read",
  requester: { kind: "operator", id: "u1", name: "Ada" },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(drivers)("events API on %s", (driver) => {
  let handle: ProcessDatabase;
  let admin: Record<string, string>;
  let otherTenantId: string;
  let other: Record<string, string>;
  let viewer: Record<string, string>;

  const record = (event: SwitchboardEvent, tenantId = handle.defaultTenant.id) =>
    recordEvent(handle.db, { tenantId, event });

  async function history(query: string, headers = admin) {
    return listEventsRoute(new Request(`${origin}/api/v1/events${query}`, { headers }), noParams);
  }
  async function page(query: string, headers = admin): Promise<EventPage> {
    const res = await history(query, headers);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as EventPage;
  }

  function openStream(query = "", headers: Record<string, string> = admin) {
    const abort = new AbortController();
    const response = streamRoute(
      new Request(`${origin}/api/v1/events/stream${query}`, { headers, signal: abort.signal }),
      noParams,
    );
    return {
      abort,
      async reader() {
        const res = await response;
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
        expect(res.headers.get("cache-control")).toContain("no-cache");
        if (!res.body) throw new Error("no body");
        const reader = new SseReader(res.body);
        expect((await reader.next())?.comment).toBe("connected");
        return reader;
      },
    };
  }

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    admin = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    const [tenant] = await handle.db.insert(tenants).values({ slug: "other", name: "Other" }).returning();
    otherTenantId = tenant?.id ?? "";
    other = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"], otherTenantId)}` };
    viewer = {
      cookie: (await createTestOperator(handle, { email: `v-${driver}@example.com`, role: "viewer" })).cookie,
    };
  });
  afterAll(async () => {
    await handle?.close();
  });

  describe("GET /api/v1/events", () => {
    let mine: RecordedEvent[];
    beforeAll(async () => {
      mine = [];
      for (let i = 0; i < 25; i++) {
        mine.push(
          await record(i % 5 === 0 ? callRequested(`call-${i}`) : health(i, i % 2 ? "files" : "web")),
        );
        await record(health(i), otherTenantId);
      }
    });

    it("pages back from the newest with `before`, forward with `after`, no overlap", async () => {
      const first = await page("?limit=10");
      expect(first.events.map((e) => e.id)).toEqual(
        mine
          .slice(-10)
          .map((e) => e.id)
          .reverse(),
      );
      expect(first.hasMore).toBe(true);
      const second = await page(`?limit=10&before=${first.cursor.before}`);
      expect(second.events.map((e) => e.id)).toEqual(
        mine
          .slice(5, 15)
          .map((e) => e.id)
          .reverse(),
      );
      const third = await page(`?limit=10&before=${second.cursor.before}`);
      expect(third.events).toHaveLength(5);
      expect(third.hasMore).toBe(false);

      const forward = await page(`?limit=10&after=${mine[0]?.id}`);
      expect(forward.events.map((e) => e.id)).toEqual(mine.slice(1, 11).map((e) => e.id));
      expect(forward.cursor.after).toBe(mine[10]?.id);
      const all = await page("?limit=200");
      expect(all.events).toHaveLength(25);
      expect(all.events[0]).toEqual(mine.at(-1));
    });

    it("filters by server (name or id), call and type (exact or prefix)", async () => {
      const byName = await page("?server=files&limit=200");
      expect(byName.events.map((e) => e.id)).toEqual(
        mine
          .filter((e) => "serverName" in e && e.serverName === "files")
          .map((e) => e.id)
          .reverse(),
      );
      expect(
        (await page("?server=id-web&limit=200")).events.every(
          (e) => "serverName" in e && e.serverName === "web",
        ),
      ).toBe(true);
      const calls = await page("?type=call.&limit=200");
      expect(calls.events.map((e) => e.type)).toEqual(Array(5).fill("call.requested"));
      expect((await page("?call=call-10")).events.map((e) => e.id)).toEqual([mine[10]?.id]);
      expect((await page("?type=server.health_checked,call.requested&limit=200")).events).toHaveLength(25);
      expect((await page("?type=server.state_changed")).events).toEqual([]);
    });

    it("shows a workspace only its own events, and lets viewers read", async () => {
      const theirs = await page("?limit=200", other);
      expect(theirs.events).toHaveLength(25);
      expect(theirs.events.every((e) => e.tenantId === otherTenantId)).toBe(true);
      expect(
        (await page("?limit=5", viewer)).events.every((e) => e.tenantId === handle.defaultTenant.id),
      ).toBe(true);
    });

    it("refuses bad queries with field errors", async () => {
      for (const [query, field] of [
        ["?limit=201", "limit"],
        ["?limit=0", "limit"],
        ["?before=abc", "before"],
        ["?after=-1", "after"],
        ["?type=call.aproved", "type"],
      ] as const) {
        const res = await history(query);
        expect(res.status, query).toBe(400);
        const body = (await res.json()) as { error: { code: string; fieldErrors: Record<string, string[]> } };
        expect(body.error.code).toBe("validation");
        expect(Object.keys(body.error.fieldErrors)).toContain(field);
      }
    });
  });

  describe("GET /api/v1/events/stream", () => {
    it("resumes with Last-Event-ID: exactly the missed events, none lost or duplicated", async () => {
      const first = openStream("?server=files");
      const reader = await first.reader();
      const live: RecordedEvent[] = [];
      for (let i = 0; i < 5; i++) live.push(await record(health(i)));
      const received = await reader.events(5);
      expect(payloads(received).map((e) => e.id)).toEqual(live.map((e) => e.id));
      expect(payloads(received)[0]).toEqual(live[0]);
      const resumeFrom = reader.lastEventId;
      expect(resumeFrom).toBe(String(live[4]?.id));

      // The client goes away; events keep happening (one of another server, one of another workspace).
      first.abort.abort();
      expect(await reader.endsWithin(2_000)).toBe(true);
      const missed: RecordedEvent[] = [];
      for (let i = 5; i < 9; i++) {
        missed.push(await record(health(i)));
        await record(health(i, "web"));
        await record(health(i), otherTenantId);
      }

      const second = openStream("?server=files", { ...admin, "last-event-id": resumeFrom });
      const resumed = await second.reader();
      expect(payloads(await resumed.events(4)).map((e) => e.id)).toEqual(missed.map((e) => e.id));
      // A sentinel, not a pause: the next event after the missed ones is this one, so nothing else
      // (a duplicate, another server's or workspace's event) came in between.
      const later = await record(health(10));
      expect(payloads(await resumed.events(1)).map((e) => e.id)).toEqual([later.id]);
      second.abort.abort();
    });

    it("resumes from ?lastEventId= too, and filters by type prefix", async () => {
      const start = await record(callRequested("c-stream"));
      await record(health(1));
      const afterStart = await record(callRequested("c-stream-2"));
      const stream = openStream(`?type=call.&lastEventId=${start.id}`);
      const reader = await stream.reader();
      expect(payloads(await reader.events(1)).map((e) => e.id)).toEqual([afterStart.id]);
      // Sentinel: a server event, then a call event; the next one sent must be the call event.
      await record(health(2));
      const sentinel = await record(callRequested("c-stream-3"));
      expect(payloads(await reader.events(1)).map((e) => e.id)).toEqual([sentinel.id]);
      stream.abort.abort();
    });

    it("never sends another workspace's events; viewers may stream their own", async () => {
      const stream = openStream("", viewer);
      const reader = await stream.reader();
      await record(health(1), otherTenantId);
      const mine = await record(health(2));
      const [only] = payloads<RecordedEvent>(await reader.events(1));
      expect(only?.id).toBe(mine.id);
      expect(only?.tenantId).toBe(handle.defaultTenant.id);
      stream.abort.abort();
    });

    it("stops following the feed when the request is aborted", async () => {
      const feed = stableFeedFor(handle);
      const before = feed.subscriberCount;
      const stream = openStream();
      const reader = await stream.reader();
      expect(feed.subscriberCount).toBe(before + 1);
      stream.abort.abort();
      expect(await reader.endsWithin(2_000)).toBe(true);
      expect(feed.subscriberCount).toBe(before);
    });

    it("refuses a bad Last-Event-ID or filter before streaming, and unauthenticated callers", async () => {
      const bad = await streamRoute(
        new Request(`${origin}/api/v1/events/stream`, { headers: { ...admin, "last-event-id": "x1" } }),
        noParams,
      );
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("validation");
      const badType = await streamRoute(
        new Request(`${origin}/api/v1/events/stream?type=nope`, { headers: admin }),
        noParams,
      );
      expect(badType.status).toBe(400);
      const anonymous = await streamRoute(new Request(`${origin}/api/v1/events/stream`), noParams);
      expect(anonymous.status).toBe(401);
      await sleep(0);
    });
  });
});
