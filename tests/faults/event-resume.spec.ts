import path from "node:path";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import {
  allowFixtureServers,
  type Cluster,
  countDir,
  countLines,
  createAgent,
  postCall,
  registerCountingReadServer,
  type SwitchboardProcess,
  startCluster,
} from "../fixtures/cluster";

/*
 * Issue #16, item 2: two Switchboard processes on one PostgreSQL both write events (tool calls
 * through POST /api/v1/calls: requested, started, succeeded — three events each) as fast as they
 * can for WRITE_MS (the rate is printed; the issue asks for ≥ 500 events/s, which a quiet machine
 * needs for it — on a shared 2-core one it was ~45/s), while SSE readers on both processes drop their connection every 150 ms and resume with
 * Last-Event-ID. Each reader must get every event of the workspace once, in id order: compared
 * with the events table. Before the fix a reconnecting reader lost the lower ids that committed
 * after a higher one it had been sent (121 of 3,600 with 24 reconnects).
 */

const RECONNECT_MS = 150;
/** How long both processes write; then the readers must catch up with the table. */
const WRITE_MS = 30_000;
const PARALLEL_PER_PROCESS = 24;

let cluster: Cluster;
let countFile: string;
let agentKey: string;

test.beforeAll(async () => {
  cluster = await startCluster({ processes: 2 });
  const [a] = cluster.processes as [SwitchboardProcess];
  await allowFixtureServers(a);
  countFile = path.join(countDir(), "count.log");
  // The tool is unclassified until an admin says what it does: as a read it needs no approval.
  await registerCountingReadServer(a, "counting", countFile);
  agentKey = await createAgent(a, "writer", ["counting__*"]);
});

test.afterAll(async () => {
  await cluster?.stop();
});

/** One tool call as the agent; resolves with the HTTP status and the call's status. */
async function callRecord(proc: SwitchboardProcess, key: string) {
  const res = await postCall(proc, agentKey, {
    tool: "counting__record",
    arguments: { key },
    waitSeconds: 30,
  });
  const body = (await res.json().catch(() => ({}))) as { call?: { status?: string } };
  return { http: res.status, status: body.call?.status };
}

/** A reader that drops its stream every RECONNECT_MS and resumes with the last id it saw. */
function reconnectingReader(proc: SwitchboardProcess, startAfter: string) {
  const received: Array<{ id: number; tenantId: string }> = [];
  let stopped = false;
  let reconnects = 0;
  let lastEventId = startAfter;
  const done = (async () => {
    while (!stopped) {
      const stream = await proc.openEventStream("", lastEventId);
      const until = Date.now() + RECONNECT_MS;
      for (;;) {
        const message = await stream.reader.next(Math.max(1, until - Date.now()));
        if (!message) break;
        if (message.comment !== undefined || message.event === "gap") continue;
        const event = JSON.parse(message.data) as { id: number; tenantId: string };
        received.push({ id: event.id, tenantId: event.tenantId });
        if (message.id !== undefined) lastEventId = message.id;
      }
      stream.close();
      reconnects++;
    }
  })();
  return {
    name: proc.name,
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

test("two writing processes; readers resuming every 150 ms get every event once, in order", async () => {
  const [a, b] = cluster.processes as [SwitchboardProcess, SwitchboardProcess];
  // Both processes can run the tool (each starts the server in its own pool on first use).
  for (const proc of [a, b]) {
    await expect.poll(async () => (await callRecord(proc, `warm-${proc.name}`)).status).toBe("succeeded");
  }
  const sql = postgres(cluster.databaseUrl, { max: 2, onnotice: () => {} });
  const readers: Array<ReturnType<typeof reconnectingReader>> = [];
  try {
    // The workspace's history so far is not this test's: every reader starts after it.
    const [{ max_id: startId } = { max_id: "0" }] = await sql<Array<{ max_id: string }>>`
      select max(id)::text as max_id from events`;
    readers.push(...[a, b, a, b].map((proc) => reconnectingReader(proc, startId)));

    const started = Date.now();
    const outcomes = await Promise.all(
      [a, b].map(async (proc) => {
        const results: Array<{ http: number; status?: string }> = [];
        let next = 0;
        await Promise.all(
          Array.from({ length: PARALLEL_PER_PROCESS }, async () => {
            while (Date.now() - started < WRITE_MS) {
              const n = next++;
              results.push(await callRecord(proc, `${proc.name}-${n}`));
            }
          }),
        );
        return results;
      }),
    );
    const elapsedMs = Date.now() - started;
    const all = outcomes.flat();
    expect(all.filter((o) => o.http !== 200 || o.status !== "succeeded")).toEqual([]);
    // Each call ran once (counted by the server), so each wrote its three events.
    expect(countLines(countFile)).toBe(all.length + 2);

    // The burst's events, from the table: every reader must have exactly these, in this order.
    const [{ end_id: endId } = { end_id: "0" }] = await sql<Array<{ end_id: string }>>`
      select max(id)::text as end_id from events`;
    // The bootstrap key's workspace: the one the readers read.
    const tenantId = readers[0]?.received[0]?.tenantId ?? "";
    const table = (
      await sql<Array<{ id: string }>>`select id::text from events
        where tenant_id = ${tenantId} and id > ${startId} and id <= ${endId} order by events.id`
    ).map((row) => Number(row.id));
    const burstEvents = (
      await sql<Array<{ n: string }>>`select count(*)::text as n from events
        where id > ${startId} and id <= ${endId} and type like 'call.%'`
    ).map((row) => Number(row.n))[0] as number;
    expect(burstEvents).toBe(3 * all.length);
    const eventsPerSecond = Math.round((burstEvents / elapsedMs) * 1000);
    console.log(`${burstEvents} call events in ${elapsedMs} ms: ${eventsPerSecond} events/s`);
    // Printed, not asserted: the rate is the machine's. What must hold at any rate is below.

    const last = Number(endId);
    await expect
      .poll(() => Math.min(...readers.map((r) => r.received.at(-1)?.id ?? 0)), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(last);
    await Promise.all(readers.map((r) => r.stop()));

    for (const reader of readers) {
      const ids = reader.received.map((e) => e.id).filter((id) => id <= last);
      const seen = new Set(ids);
      const lost = table.filter((id) => !seen.has(id)).length;
      const duplicated = ids.length - seen.size;
      const outOfOrder = ids.filter((id, i) => i > 0 && id <= (ids[i - 1] ?? 0)).length;
      console.log(
        `reader on ${reader.name}: ${ids.length} events, ${reader.reconnects} reconnects, lost ${lost}, duplicated ${duplicated}, out of order ${outOfOrder}`,
      );
      expect(reader.reconnects).toBeGreaterThan(10);
      expect({ lost, duplicated, outOfOrder }).toEqual({ lost: 0, duplicated: 0, outOfOrder: 0 });
      expect(ids).toEqual(table);
    }
  } finally {
    await Promise.all(readers.map((r) => r.stop().catch(() => {})));
    await sql.end();
  }
});
