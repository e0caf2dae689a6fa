import path from "node:path";
import { expect, test } from "@playwright/test";
import { type BalancedCluster, SERVED_BY_HEADER, startBalancedCluster } from "../fixtures/balancer";
import {
  allowFixtureServers,
  countDir,
  countLines,
  createAgent,
  type EventStreamClient,
  postCall,
  postToolCall,
  readJsonRpcAnswer,
  registerCountingReadServer,
  type SwitchboardProcess,
} from "../fixtures/cluster";

/*
 * Issue #25: a rolling restart behind a real HAProxy. Three processes on one PostgreSQL, round-robin
 * with no affinity. Four clients call a counting tool in a closed loop through the balancer — every
 * other call over REST (POST /api/v1/calls), the others through the MCP gateway (/mcp) — each with
 * a key of its own, so the stdio server's count file says what really ran. Meanwhile each replica
 * in turn gets SIGTERM, exits, starts again and is back in rotation before the next one goes.
 *
 * A client sends a call again only when it was cleanly refused: 503 with Retry-After (the shutdown
 * gate), or no response at all. What must hold, as the clients and a dashboard see it: every call
 * answered with its tool's result, run exactly once (one line, one call row, however often it was
 * sent), none lost; a dashboard reading the event stream through the balancer, resuming with
 * Last-Event-ID whenever its replica stops, gets every event of the workspace once, in id order,
 * and each call's `call.succeeded` once.
 *
 * A stopped replica is started again once HAProxy has it out of rotation (DOWN), so each restart's
 * figures (SIGTERM → out of rotation) are measured. This test first found that a process answered
 * /mcp before its connection pool ran, recording such a call as failed; a starting process now
 * refuses tool calls with a 503 the balancer retries (tests/integration/gateway/gateway.test.ts).
 */

const WORKERS = 4;
const TOOL = "counting__record";
/** Each replica is restarted this many times, one after the other. */
const ROUNDS = 2;
/** Answered calls before the first restart, between two restarts and after the last. */
const CALLS_BETWEEN = 20;
/** Readers of the event stream through the balancer: round-robin puts them on different replicas. */
const DASHBOARDS = 3;
/** A call held running on the replica when it gets SIGTERM: far inside the 20 s grace period. */
const HELD_MS = 3_000;
/** A refused call is sent again up to this many times (with Retry-After: 2 s each). */
const MAX_SENDS = 8;
/** How long each call's tool runs: long enough that a SIGTERM finds calls in flight, which must finish. */
const delayFor = (n: number) => (n * 53) % 250;

type Via = "rest" | "mcp";
type Send =
  | { kind: "answered"; servedBy: string | null; callId?: string }
  | { kind: "refused"; status: number | "no response"; retryAfter: string | null; detail: string }
  | { kind: "broken"; status: number; detail: string };
type IssuedCall = {
  key: string;
  via: Via;
  sends: Send[];
  answered?: { servedBy: string | null; at: number };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let world: BalancedCluster;
let countFile: string;
let agentKey: string;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  world = await startBalancedCluster({ processes: 3 });
  const [a] = world.processes as [SwitchboardProcess];
  await allowFixtureServers(a);
  countFile = path.join(countDir(), "count.log");
  await registerCountingReadServer(a, "counting", countFile);
  agentKey = await createAgent(a, "load", ["counting__*"]);
  // Every replica runs the tool (each starts the stdio server in its own pool on first use).
  for (const proc of world.processes) {
    await expect
      .poll(async () => {
        const res = await postCall(proc, agentKey, { tool: TOOL, arguments: { key: `warm-${proc.name}` } });
        return ((await res.json().catch(() => ({}))) as { call?: { status?: string } }).call?.status;
      })
      .toBe("succeeded");
  }
});

/** The load and the dashboards, stopped before the cluster even when the test failed midway. */
const clients: Array<{ stop(): Promise<void> }> = [];

test.afterAll(async () => {
  await Promise.all(clients.map((client) => client.stop().catch(() => {})));
  await world?.stop();
});

/** One send of a call to `target` (the balancer, or a process), classified by what the client can tell. */
async function sendTo(target: { url: string }, via: Via, key: string, delayMs: number): Promise<Send> {
  const args = { key, delayMs };
  let res: Response;
  try {
    res =
      via === "rest"
        ? await postCall(target, agentKey, { tool: TOOL, arguments: args, waitSeconds: 60 })
        : await postToolCall(target, agentKey, { id: key, tool: TOOL, arguments: args });
  } catch (error) {
    // No response at all: the request never got an answer, so it is sent again.
    return { kind: "refused", status: "no response", retryAfter: null, detail: describeError(error) };
  }
  const servedBy = res.headers.get(SERVED_BY_HEADER);
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    // An answer cut short: the call may have run. Not a clean refusal, never sent again.
    return { kind: "broken", status: res.status, detail: `${servedBy}: body cut: ${describeError(error)}` };
  }
  const retryAfter = res.headers.get("retry-after");
  if (res.status === 503 && retryAfter !== null)
    return { kind: "refused", status: 503, retryAfter, detail: `${servedBy}: ${text.slice(0, 200)}` };
  const detail = `${servedBy}: ${res.status} ${text.slice(0, 500)}`;
  if (res.status !== 200) return { kind: "broken", status: res.status, detail };
  if (via === "rest") {
    const call = parseJson<{ call?: { id: string; status: string; isError: boolean | null } }>(text)?.call;
    if (call?.status !== "succeeded" || call.isError) return { kind: "broken", status: 200, detail };
    return { kind: "answered", servedBy, callId: call.id };
  }
  const answer = readJsonRpcAnswer<{ result?: { isError?: boolean; content: Array<{ text?: string }> } }>(
    text,
  );
  if (answer?.result?.isError || answer?.result?.content[0]?.text !== `recorded ${key}`)
    return { kind: "broken", status: 200, detail };
  return { kind: "answered", servedBy };
}

const parseJson = <T>(text: string): T | undefined => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};

const describeError = (error: unknown) => {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return `${e.message}${e.cause ? ` (${e.cause.code ?? e.cause.message})` : ""}`;
};

/** WORKERS clients, each sending its next call once the last one is answered (or given up). */
function startLoad() {
  const issued: IssuedCall[] = [];
  let stopping = false;
  let next = 0;
  const worker = async () => {
    while (!stopping) {
      const n = next++;
      const call: IssuedCall = { key: `load-${n}`, via: n % 2 === 0 ? "rest" : "mcp", sends: [] };
      issued.push(call);
      for (;;) {
        const send = await sendTo(world.balancer, call.via, call.key, delayFor(n));
        call.sends.push(send);
        if (send.kind === "answered") {
          call.answered = { servedBy: send.servedBy, at: Date.now() };
          break;
        }
        if (send.kind === "broken" || call.sends.length >= MAX_SENDS) break;
        await sleep(send.retryAfter ? Number(send.retryAfter) * 1000 : 500);
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  const answered = () => issued.filter((c) => c.answered);
  return {
    issued,
    answered,
    /** Resolves once `count` more calls are answered (and, if named, one of them by `replica`). */
    async waitForAnswers(count: number, replica?: string) {
      const from = answered().length;
      const since = Date.now();
      const deadline = since + 120_000;
      const enough = () =>
        answered().length >= from + count &&
        (!replica || answered().some((c) => c.answered?.servedBy === replica && c.answered.at >= since));
      while (!enough()) {
        const givenUp = issued.filter((c) => !c.answered && c.sends.at(-1)?.kind === "broken");
        if (Date.now() > deadline || givenUp.length > 0)
          throw new Error(
            `the load stalled (${answered().length} answered${replica ? `, waiting for ${replica}` : ""}): ` +
              `${JSON.stringify(givenUp.slice(0, 5))}\n${world.balancer.log().slice(-3000)}`,
          );
        await sleep(100);
      }
    },
    async stop() {
      stopping = true;
      await Promise.all(workers);
    },
  };
}

type SeenEvent = { id: number; type: string; callId?: string };

/** A dashboard on the event stream through the balancer, resuming with Last-Event-ID when it ends. */
function startDashboard(name: string, startAfter: number) {
  const seen: SeenEvent[] = [];
  const gaps: string[] = [];
  const refusedOpens: string[] = [];
  let lastEventId = String(startAfter);
  let reconnects = 0;
  let stopping = false;
  let current: EventStreamClient | undefined;
  const done = (async () => {
    while (!stopping) {
      try {
        current = await world.openEventStream("", lastEventId);
      } catch (error) {
        refusedOpens.push(describeError(error));
        await sleep(250);
        continue;
      }
      const { reader } = current;
      while (!stopping && !reader.ended) {
        // A stream its replica cut (closed the connection mid-stream) ends like one it ended.
        const message = await reader.next(500).catch(() => "cut" as const);
        if (message === "cut") break;
        if (!message || message.comment !== undefined) continue;
        if (message.event === "gap") gaps.push(message.data);
        else seen.push(JSON.parse(message.data) as SeenEvent);
        if (message.id !== undefined) lastEventId = message.id;
      }
      current.close();
      if (!stopping) reconnects++;
    }
  })();
  done.catch(() => {}); // stop() awaits it: its failure shows there, not as an unhandled rejection
  return {
    name,
    seen,
    gaps,
    refusedOpens,
    get reconnects() {
      return reconnects;
    },
    async stop() {
      stopping = true;
      current?.close();
      await done;
    },
  };
}

/** Every event of the workspace after `afterId`, oldest first, through GET /api/v1/events. */
async function eventHistory(afterId: number): Promise<SeenEvent[]> {
  const all: SeenEvent[] = [];
  let after = afterId;
  for (;;) {
    const res = await world.api("GET", `/api/v1/events?after=${after}&limit=200`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { events: SeenEvent[]; hasMore: boolean; cursor: { after: number } };
    all.push(...page.events);
    if (!page.hasMore) return all;
    after = page.cursor.after;
  }
}

/** The tool's call rows with their `key` argument, through GET /api/v1/calls and /calls/{id}. */
async function callRows(): Promise<Array<{ id: string; status: string; key: string }>> {
  const rows: Array<{ id: string; status: string; key: string }> = [];
  let cursor = "";
  for (;;) {
    const res = await world.api("GET", `/api/v1/calls?tool=${TOOL}&limit=200${cursor}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { calls: Array<{ id: string }>; nextCursor: string | null };
    for (const { id } of page.calls) {
      const detail = await world.api("GET", `/api/v1/calls/${id}`);
      const { call } = (await detail.json()) as {
        call: { id: string; status: string; arguments: { key: string } };
      };
      rows.push({ id: call.id, status: call.status, key: call.arguments.key });
    }
    if (!page.nextCursor) return rows;
    cursor = `&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
}

test("SIGTERM to each replica in turn under load: every call answered and run once, the event stream whole", async () => {
  test.setTimeout(600_000);
  const newest = (await (await world.api("GET", "/api/v1/events?limit=1")).json()) as {
    events: Array<{ id: number }>;
  };
  const startId = newest.events[0]?.id ?? 0;
  const dashboards = Array.from({ length: DASHBOARDS }, (_, i) =>
    startDashboard(`dashboard ${i + 1}`, startId),
  );
  const load = startLoad();
  clients.push(load, ...dashboards);
  const held: Array<{ key: string; answer: Send }> = [];
  const restarts: string[] = [];
  try {
    await load.waitForAnswers(CALLS_BETWEEN);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const proc of world.processes) {
        // At least one call is running on it when the signal comes (the load's calls may be too).
        const key = `held-${proc.name}-${round}`;
        const { answer } = await holdCallOn(proc, key);
        const logFrom = proc.log().length;
        const sigterm = Date.now();
        const exit = proc.kill("SIGTERM");
        const outOfRotation = world.balancer.waitServerState(proc.name, "DOWN").then(() => Date.now());
        outOfRotation.catch(() => {}); // awaited below: a failure before then must not go unhandled
        expect(await exit, `${proc.name} exits cleanly on SIGTERM`).toEqual({ code: 0, signal: null });
        const exited = Date.now();
        held.push({ key, answer: await answer });
        const running = /(\d+) call\(s\) running get up to/.exec(proc.log().slice(logFrom))?.[1];
        // Started again once the balancer has it out of rotation (its figure, see the note above).
        const out = await outOfRotation;
        const restarted = Date.now();
        await proc.start();
        const ready = Date.now();
        await world.balancer.waitServerState(proc.name, "UP");
        const inRotation = Date.now();
        // Back for real: it answers calls of the load again, and more are answered after that.
        await load.waitForAnswers(CALLS_BETWEEN, proc.name);
        restarts.push(
          `round ${round}, ${proc.name}: SIGTERM→exit ${exited - sigterm} ms (its log: ${running} call(s) running), ` +
            `SIGTERM→out of rotation ${out - sigterm} ms, start→ready ${ready - restarted} ms, ` +
            `ready→in rotation ${inRotation - ready} ms, →serving the load ${Date.now() - inRotation} ms`,
        );
      }
    }
  } finally {
    await load.stop();
  }

  // ── what the clients saw ──
  const sends = load.issued.flatMap((c) => c.sends);
  const resent = load.issued.filter((c) => c.sends.length > 1);
  const servedBy = new Map<string, number>();
  for (const { answered } of load.issued)
    if (answered) servedBy.set(`${answered.servedBy}`, (servedBy.get(`${answered.servedBy}`) ?? 0) + 1);
  console.log(
    `[rolling-restart] ${load.issued.length} calls through the balancer ` +
      `(${load.issued.filter((c) => c.via === "rest").length} REST, ${load.issued.filter((c) => c.via === "mcp").length} MCP) ` +
      `in ${sends.length} sends: ${resent.length} sent again by their client after a clean refusal ` +
      `(${sends.filter((s) => s.kind === "refused").length} refusals); ` +
      `requests HAProxy retried on another replica: ${retriesInBalancerLog(world.balancer.log())}; ` +
      `answered per replica: ${JSON.stringify(Object.fromEntries(servedBy))}`,
  );
  for (const line of restarts) console.log(`[rolling-restart] ${line}`);
  for (const line of world.balancer.log().split("\n"))
    if (/^Server switchboard\/\w+ is (DOWN|UP)/.test(line)) console.log(`[rolling-restart] haproxy: ${line}`);

  expect(
    load.issued.filter((c) => !c.answered),
    "every call is answered with its tool's result",
  ).toEqual([]);
  expect(
    held.filter((h) => h.answer.kind !== "answered"),
    "calls running at SIGTERM finish and are answered",
  ).toEqual([]);
  expect([...servedBy.keys()].sort(), "round-robin: every replica answered calls").toEqual(["A", "B", "C"]);

  // ── what ran: one line per call, one call row per call, none for a refused send ──
  const keys = [...load.issued.map((c) => c.key), ...held.map((h) => h.key)];
  const ranTwice = keys.filter((key) => countLines(countFile, key) > 1);
  const neverRan = keys.filter((key) => countLines(countFile, key) === 0);
  expect({ ranTwice, neverRan }, "each call ran exactly once").toEqual({ ranTwice: [], neverRan: [] });
  const warmUps = world.processes.reduce((sum, p) => sum + countLines(countFile, `warm-${p.name}`), 0);
  expect(countLines(countFile) - warmUps, "nothing else ran").toBe(keys.length);

  const rows = (await callRows()).filter((row) => !row.key.startsWith("warm-"));
  const rowsByKey = groupBy(rows, (row) => row.key);
  expect(
    keys.filter((key) => rowsByKey.get(key)?.length !== 1),
    "one call row per call",
  ).toEqual([]);
  expect(rows.length).toBe(keys.length);
  expect(rows.filter((row) => row.status !== "succeeded")).toEqual([]);
  // REST answers named their call: the same row.
  for (const call of load.issued) {
    const answered = call.sends.at(-1);
    if (answered?.kind === "answered" && call.via === "rest")
      expect(answered.callId, call.key).toBe(rowsByKey.get(call.key)?.[0]?.id);
  }

  // ── what the dashboards saw: the workspace's history, once, in order, with no gap ──
  const history = await eventHistory(startId);
  const lastId = history.at(-1)?.id ?? startId;
  for (const dashboard of dashboards) {
    await expect
      .poll(() => dashboard.seen.at(-1)?.id ?? 0, {
        timeout: 60_000,
        message: `${dashboard.name} catches up`,
      })
      .toBeGreaterThanOrEqual(lastId);
    await dashboard.stop();
    const ids = dashboard.seen.map((e) => e.id).filter((id) => id <= lastId);
    console.log(
      `[rolling-restart] ${dashboard.name}: ${ids.length} events over ${dashboard.reconnects + 1} streams ` +
        `(${dashboard.reconnects} resumed with Last-Event-ID, ${dashboard.refusedOpens.length} refused opens)`,
    );
    expect(dashboard.gaps, `${dashboard.name}: no gap marker`).toEqual([]);
    expect(
      ids.filter((id, i) => i > 0 && id <= (ids[i - 1] ?? 0)),
      `${dashboard.name}: event ids strictly increasing`,
    ).toEqual([]);
    expect(ids, `${dashboard.name}: every event of the workspace, once, in order`).toEqual(
      history.map((e) => e.id),
    );
    // Its replica was restarted at least once while it read: it resumed on another.
    expect(dashboard.reconnects, `${dashboard.name}: its stream was cut`).toBeGreaterThan(0);
    const succeeded = groupBy(
      dashboard.seen.filter((e) => e.type === "call.succeeded"),
      (e) => e.callId ?? "",
    );
    expect(
      rows.filter((row) => succeeded.get(row.id)?.length !== 1).map((row) => row.key),
      `${dashboard.name}: each call's completion seen exactly once`,
    ).toEqual([]);
  }
});

/**
 * Sends a call straight to `proc` whose tool runs HELD_MS, and resolves once it is running there
 * with the promise of its answer (in an object: an async function would wait for it).
 */
async function holdCallOn(proc: SwitchboardProcess, key: string): Promise<{ answer: Promise<Send> }> {
  const answer = sendTo(proc, "rest", key, HELD_MS);
  await expect
    .poll(
      async () => {
        const res = await proc.api("GET", `/api/v1/calls?tool=${TOOL}&status=running&limit=200`);
        const { calls } = (await res.json()) as { calls: Array<{ id: string }> };
        for (const { id } of calls) {
          const detail = (await (await proc.api("GET", `/api/v1/calls/${id}`)).json()) as {
            call: { arguments: { key: string } };
          };
          if (detail.call.arguments.key === key) return true;
        }
        return false;
      },
      { timeout: 30_000, message: `${key} runs on ${proc.name}` },
    )
    .toBe(true);
  return { answer };
}

/** Requests HAProxy sent again (its httplog's retries field, `+N` when redispatched). */
function retriesInBalancerLog(log: string): number {
  let retries = 0;
  for (const match of log.matchAll(/ \d+\/\d+\/\d+\/\d+\/\+?(\d+) \d+\/\d+ /g)) retries += Number(match[1]);
  return retries;
}

/** Map.groupBy, which Node.js 20 lacks. */
function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
