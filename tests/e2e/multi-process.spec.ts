import path from "node:path";
import type { RecordedEvent } from "@/lib/events/event-types";
import { type Cluster, startCluster } from "../fixtures/cluster";
import { payloads } from "../fixtures/sse-reader";
import { expect, test } from "./fixtures";

/*
 * Two `next start` processes on one PostgreSQL, nothing else shared: events recorded by one are
 * streamed by the other (LISTEN/NOTIFY + the events table), and a client that reconnects to the
 * other process with Last-Event-ID misses nothing.
 */

test.describe.configure({ mode: "serial", timeout: 180_000 });

const localTools = {
  name: "local-tools",
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", path.join(process.cwd(), "demo-servers", "local-tools.ts")],
  cwd: process.cwd(),
};

type Page = { events: RecordedEvent[] };

let cluster: Cluster;

test.beforeAll(async () => {
  cluster = await startCluster({ processes: 2 });
});
test.afterAll(async () => {
  await cluster?.stop();
});

test("an SSE client on B receives the events of a server registered through A", async () => {
  const [a, b] = cluster.processes;
  if (!a || !b) throw new Error("two processes expected");
  const stream = await b.openEventStream("?server=local-tools");

  const res = await a.api("POST", "/api/v1/servers", localTools);
  expect(res.status, await res.clone().text()).toBe(201);

  // A's pool connects the server and discovers its tools; B streams what A records.
  const seen: RecordedEvent[] = [];
  while (!seen.some((e) => e.type === "catalog.changed")) {
    seen.push(...payloads<RecordedEvent>(await stream.reader.events(1, 30_000)));
  }
  expect(seen.map((e) => e.type)).toContain("server.state_changed");
  expect(seen.some((e) => e.type === "server.state_changed" && "to" in e && e.to === "ready")).toBe(true);
  expect(seen.every((e) => "serverName" in e && e.serverName === "local-tools")).toBe(true);

  // Every event B streamed is in the shared history, none twice. B's own pool connects the
  // server too (the registration reaches every replica), so B's events — published at once —
  // interleave with A's, which arrive after A commits: order holds per process, not across them.
  const history = (await (await a.api("GET", "/api/v1/events?server=local-tools&after=0")).json()) as Page;
  const ids = seen.map((e) => e.id);
  expect(history.events.map((e) => e.id)).toEqual(expect.arrayContaining(ids));
  expect(new Set(ids).size).toBe(ids.length);
  expect(seen[0]?.type).toBe("server.registered");
  stream.close();
});

test("a client that reconnects to B with Last-Event-ID gets exactly the events it missed", async () => {
  const [a, b] = cluster.processes;
  if (!a || !b) throw new Error("two processes expected");
  const latest = (await (await b.api("GET", "/api/v1/events?limit=1")).json()) as Page;
  const resumeFrom = String(latest.events[0]?.id ?? 0);

  // While no client is connected, A reconnects the server: disconnected → connecting → ready.
  const reconnect = await a.api("POST", "/api/v1/servers/local-tools/reconnect");
  expect(reconnect.status, await reconnect.clone().text()).toBe(200);
  let missed: RecordedEvent[] = [];
  await expect
    .poll(
      async () => {
        const page = (await (await a.api("GET", `/api/v1/events?after=${resumeFrom}`)).json()) as Page;
        missed = page.events;
        return missed.some((e) => e.type === "server.state_changed" && "to" in e && e.to === "ready");
      },
      { timeout: 30_000 },
    )
    .toBe(true);

  const resumed = await b.openEventStream("", resumeFrom);
  const replayed: RecordedEvent[] = [];
  while (replayed.length < missed.length) {
    replayed.push(...payloads<RecordedEvent>(await resumed.reader.events(1, 15_000)));
  }
  // Exactly A's history after the resume point: nothing lost, nothing twice, same order.
  const after = (await (await a.api("GET", `/api/v1/events?after=${resumeFrom}&limit=200`)).json()) as Page;
  expect(replayed.map((e) => e.id)).toEqual(after.events.map((e) => e.id).slice(0, replayed.length));
  expect(replayed.map((e) => e.id)).toEqual(missed.map((e) => e.id));

  // And live again on B for what A records next.
  const health = await a.api("POST", "/api/v1/servers/local-tools/health-check");
  expect(health.status).toBe(200);
  const disable = await a.api("PATCH", "/api/v1/servers/local-tools", { enabled: false });
  expect(disable.status, await disable.clone().text()).toBe(200);
  const [next] = payloads<RecordedEvent>(await resumed.reader.events(1, 30_000));
  expect(next?.id).toBeGreaterThan(Number(replayed.at(-1)?.id ?? resumeFrom));
  expect(next).toMatchObject({ serverName: "local-tools" });
  resumed.close();
});

test("events travel the other way too: a server registered through B shows on A's stream", async () => {
  const [a, b] = cluster.processes;
  if (!a || !b) throw new Error("two processes expected");
  const onA = await a.openEventStream("?type=server.&server=tools-on-b");
  const res = await b.api("POST", "/api/v1/servers", { ...localTools, name: "tools-on-b" });
  expect(res.status, await res.clone().text()).toBe(201);
  const [first] = payloads<RecordedEvent>(await onA.reader.events(1, 30_000));
  expect(first).toMatchObject({ serverName: "tools-on-b" });
  onA.close();
});

test("a call waiting on process A is approved through process B and completes", async () => {
  const [a, b] = cluster.processes;
  if (!a || !b) throw new Error("two processes expected");
  // The previous test disabled local-tools; turn it back on and let both pools connect it.
  expect((await a.api("PATCH", "/api/v1/servers/local-tools", { enabled: true })).status).toBe(200);
  await expect
    .poll(
      async () => (await (await a.api("GET", "/api/v1/servers/local-tools")).json()).server.status as string,
      {
        timeout: 30_000,
      },
    )
    .toBe("ready");

  const principal = (await (await a.api("POST", "/api/v1/principals", { name: "agent-on-a" })).json())
    .principal;
  await a.api("PUT", `/api/v1/principals/${principal.id}/grants`, { patterns: ["local-tools__*"] });
  const { key } = await (
    await a.api("POST", `/api/v1/principals/${principal.id}/keys`, { name: "k" })
  ).json();

  // The agent's call on A waits (echo is unclassified → external-write → needs approval).
  const waiting = fetch(`${a.url}/api/v1/calls`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      tool: "local-tools__echo",
      arguments: { text: "across processes" },
      waitSeconds: 90,
    }),
  });

  let approvalId = "";
  await expect
    .poll(
      async () => {
        const page = await (await b.api("GET", "/api/v1/approvals?status=pending")).json();
        approvalId = page.approvals[0]?.id ?? "";
        return approvalId;
      },
      { timeout: 30_000 },
    )
    .not.toBe("");
  const decided = await b.api("POST", `/api/v1/approvals/${approvalId}/approve`, { reason: "approved on B" });
  expect(decided.status, await decided.clone().text()).toBe(200);

  const response = await waiting;
  expect(response.status).toBe(200);
  const { call } = await response.json();
  expect(call).toMatchObject({
    status: "succeeded",
    approval: { status: "approved", reason: "approved on B" },
  });
  expect(JSON.stringify(call.result)).toContain("across processes");

  // It ran once, on whichever process claimed it.
  const timeline = (await (await b.api("GET", `/api/v1/calls/${call.id}`)).json()).timeline as {
    type: string;
  }[];
  expect(timeline.filter((step) => step.type === "call.started")).toHaveLength(1);
});
