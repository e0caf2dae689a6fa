import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  allowFixtureServers,
  type Cluster,
  countDir,
  countingServer,
  countLines,
  createAgent,
  launchSwitchboard,
  postCall,
  postToolCall,
  type SwitchboardProcess,
  startCluster,
} from "../fixtures/cluster";

/*
 * Issue #16 items 3 and 7, with real processes on one PostgreSQL and a stdio server that appends a
 * line per run (so "ran once" is counted). Process B is the one that dies: its test-only fault point
 * (SWITCHBOARD_FAULT_AFTER_DECISION=exit) kills it with SIGKILL right after a decision commits — the
 * moment between "approved" and "started" that an outside kill -9 hits only by luck.
 *
 * - An approval decided on B, which dies before starting the call, is run once by A, whose gateway
 *   client waits for it — and answered at once, not at the 50 s limit.
 * - A call approved to start within 2 s that nobody starts in time is expired, not run late.
 * - A gateway retry with the same `_meta["switchboard/idempotencyKey"]`, after the process holding
 *   the first request died, attaches to the same call: one call, run once.
 * - With nobody waiting, the surviving process's stopped-runner sweep starts it: once.
 * - On embedded PGlite (one process), the next start runs it — or expires it, past its window.
 */

test.describe.configure({ mode: "serial" });

let cluster: Cluster;
let a: SwitchboardProcess;
let b: SwitchboardProcess;
let countFile: string;
let agentKey: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  cluster = await startCluster({ processes: 1 });
  a = cluster.processes[0] as SwitchboardProcess;
  b = await cluster.addProcess({ env: { SWITCHBOARD_FAULT_AFTER_DECISION: "exit" } });
  await allowFixtureServers(a);
  countFile = path.join(countDir(), "count.log");
  const registered = await a.api("POST", "/api/v1/servers", countingServer("counter", countFile));
  expect(registered.status, await registered.clone().text()).toBe(201);
  for (const proc of [a, b]) await waitServerReady(proc);
  agentKey = await createAgent(a, "retrying-agent", ["counter__*"]);
});

test.afterAll(async () => {
  await cluster?.stop();
});

test("a call approved on a process that dies before starting it runs once, on the process its client waits on", async () => {
  const key = "approved-then-killed";
  const started = Date.now();
  const answer = gatewayCall(a, { tool: "counter__record", arguments: { key } });
  const callId = await pendingCallOf(a, key);

  const approvedAt = Date.now();
  await expect(b.api("POST", `/api/v1/approvals/${callId}/approve`, {})).rejects.toThrow();
  expect(await b.kill("SIGKILL")).toMatchObject({ signal: "SIGKILL" });

  const result = await answer;
  const answeredAfter = Date.now() - approvedAt;
  test.info().annotations.push({ type: "answered after the approval", description: `${answeredAfter} ms` });
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  expect(result.content[0]?.text).toBe(`recorded ${key}`);
  // Before the fix the client heard nothing until the gateway's 50 s limit; generous margin.
  expect(answeredAfter, `answered ${answeredAfter} ms after the approval`).toBeLessThan(25_000);
  expect(Date.now() - started).toBeLessThan(50_000);
  expect(countLines(countFile, key)).toBe(1);

  // B comes back; a sentinel call run through B after that proves nothing ran the first one again.
  await b.start();
  await waitServerReady(b);
  await runSentinel(b, "sentinel-1");
  expect(countLines(countFile, key)).toBe(1);
  const call = await getCall(a, callId);
  expect(call).toMatchObject({ status: "succeeded", approval: { status: "approved" } });
});

test("an approved call nobody starts within its window is expired, not run late", async () => {
  const key = "approved-too-long-ago";
  const queued = await callAsAgent(a, { tool: "counter__record", arguments: { key }, waitSeconds: 0 });
  expect(queued.status).toBe(202);
  const callId = ((await queued.json()) as { call: { id: string } }).call.id;

  // B approves it to start within 2 s, then dies; nobody waits for it on A.
  await expect(
    b.api("POST", `/api/v1/approvals/${callId}/approve`, { startWithinSeconds: 2 }),
  ).rejects.toThrow();
  expect(await b.kill("SIGKILL")).toMatchObject({ signal: "SIGKILL" });
  const approved = await getCall(a, callId);
  expect(approved.status).toBe("approved");
  const deadline = new Date(approved.approval.decidedAt).getTime() + 2_000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(deadline - Date.now(), 0) + 500));

  // The client comes back for it well after the window: it is expired, saying why, and not run.
  const collected = await gatewayCall(a, {
    tool: "switchboard__wait_call",
    arguments: { callId, timeoutSeconds: 10 },
  });
  expect(collected.isError).toBe(true);
  expect(collected.content[0]?.text).toMatch(
    /was not run: Approved at .* but not started within 2 s; not run/,
  );
  const expired = await getCall(a, callId);
  expect(expired).toMatchObject({ status: "expired", error: { code: "not_started" } });

  await b.start();
  await waitServerReady(b);
  await runSentinel(a, "sentinel-2");
  expect(countLines(countFile, key)).toBe(0);
});

test("a retry with the same idempotency key after the process holding the call died attaches to it: one call, run once", async () => {
  const key = "retried-after-kill";
  const idempotencyKey = `retry-${Date.now()}`;
  const request = {
    tool: "counter__record",
    arguments: { key },
    meta: { "switchboard/idempotencyKey": idempotencyKey },
  };
  const first = gatewayCall(b, request).catch((error: unknown) => error as Error);
  const callId = await pendingCallOf(a, key);
  expect(await b.kill("SIGKILL")).toMatchObject({ signal: "SIGKILL" });
  expect(await first).toBeInstanceOf(Error);

  // The agent retries on A with the same key: no second call appears in the queue.
  const retry = gatewayCall(a, request);
  await expect.poll(async () => (await pendingApprovals(a)).filter((p) => p.key === key).length).toBe(1);
  expect((await pendingApprovals(a)).find((p) => p.key === key)?.callId).toBe(callId);
  const approved = await a.api("POST", `/api/v1/approvals/${callId}/approve`, {});
  expect(approved.status, await approved.clone().text()).toBe(200);
  const result = await retry;
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  expect(result.content[0]?.text).toBe(`recorded ${key}`);

  // Had the retry made a call of its own, that one would still be waiting for approval now.
  expect((await pendingApprovals(a)).filter((p) => p.key === key)).toEqual([]);

  // A third send of the key is answered from the finished call.
  const again = await gatewayCall(a, request);
  expect(again.content[0]?.text).toBe(`recorded ${key}`);
  expect(countLines(countFile, key)).toBe(1);
  const listed = (await (await a.api("GET", "/api/v1/calls?limit=200")).json()) as {
    calls: Array<{ id: string; idempotencyKey: string | null }>;
  };
  const keyed = listed.calls.filter((call) => call.idempotencyKey === idempotencyKey);
  expect(keyed.map((call) => call.id)).toEqual([callId]);
});

test("with nobody waiting, a surviving process's sweep starts the call a dead process approved: once", async () => {
  test.setTimeout(240_000);
  const key = "approved-nobody-waiting";
  const queued = await callAsAgent(a, { tool: "counter__record", arguments: { key }, waitSeconds: 0 });
  expect(queued.status).toBe(202);
  const callId = ((await queued.json()) as { call: { id: string } }).call.id;
  // B, killed by the previous test, comes back, approves it and dies before starting it.
  await b.start();
  await waitServerReady(b);
  await expect(b.api("POST", `/api/v1/approvals/${callId}/approve`, {})).rejects.toThrow();
  expect(await b.kill("SIGKILL")).toMatchObject({ signal: "SIGKILL" });
  expect((await getCall(a, callId)).status).toBe("approved");

  // A finds B's connections gone at two sweeps 30 s apart, then starts it (default window: 300 s).
  const approvedAt = Date.now();
  await expect
    .poll(async () => (await getCall(a, callId)).status, { timeout: 150_000, intervals: [1_000] })
    .toBe("succeeded");
  test.info().annotations.push({ type: "taken over after", description: `${Date.now() - approvedAt} ms` });
  expect(countLines(countFile, key)).toBe(1);
  await runSentinel(a, "sentinel-3");
  expect(countLines(countFile, key)).toBe(1);
});

test.describe("on embedded PGlite, one process", () => {
  let p: SwitchboardProcess;
  let pgliteCount: string;
  let pgliteAgent: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const apiKey = `sb_pglite-${randomBytes(16).toString("hex")}`;
    p = await launchSwitchboard({
      name: "P",
      apiKey,
      env: {
        SWITCHBOARD_BOOTSTRAP_API_KEY: apiKey,
        SWITCHBOARD_SEED_DEMO: "false",
        SWITCHBOARD_SECRET_KEY: randomBytes(32).toString("base64"),
        SWITCHBOARD_FAULT_AFTER_DECISION: "exit",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    });
    await allowFixtureServers(p);
    pgliteCount = path.join(countDir(), "count.log");
    const registered = await p.api("POST", "/api/v1/servers", countingServer("counter", pgliteCount));
    expect(registered.status, await registered.clone().text()).toBe(201);
    await waitServerReady(p);
    pgliteAgent = await createAgent(p, "pglite-agent", ["counter__*"]);
  });
  test.afterAll(async () => {
    await p?.stop();
  });

  const queue = async (key: string) => {
    const queued = await callAsAgent(
      p,
      { tool: "counter__record", arguments: { key }, waitSeconds: 0 },
      pgliteAgent,
    );
    expect(queued.status).toBe(202);
    return ((await queued.json()) as { call: { id: string } }).call.id;
  };

  test("a call approved just before a kill -9 runs once at the next start; one past its window expires", async () => {
    const [soon, late] = ["pglite-restarted", "pglite-too-late"];
    const soonId = await queue(soon);
    await expect(p.api("POST", `/api/v1/approvals/${soonId}/approve`, {})).rejects.toThrow();
    expect(await p.kill("SIGKILL")).toMatchObject({ signal: "SIGKILL" });
    await p.start();
    await expect.poll(async () => (await getCall(p, soonId)).status, { timeout: 60_000 }).toBe("succeeded");
    expect(countLines(pgliteCount, soon)).toBe(1);

    const lateId = await queue(late);
    await expect(
      p.api("POST", `/api/v1/approvals/${lateId}/approve`, { startWithinSeconds: 1 }),
    ).rejects.toThrow();
    expect(await p.kill("SIGKILL")).toMatchObject({ signal: "SIGKILL" });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await p.start();
    await expect.poll(async () => (await getCall(p, lateId)).status, { timeout: 60_000 }).toBe("expired");
    expect(await getCall(p, lateId)).toMatchObject({ error: { code: "not_started" } });
    expect(countLines(pgliteCount, late)).toBe(0);
    expect(countLines(pgliteCount, soon)).toBe(1);
  });
});

// ── helpers ──────────────────────────────────────────────────────────────────────────────────────

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

/** One stateless tools/call on the process's /mcp as the agent; resolves with the tool result. */
async function gatewayCall(
  proc: SwitchboardProcess,
  call: { tool: string; arguments: Record<string, unknown>; meta?: Record<string, unknown> },
): Promise<ToolResult> {
  const res = await postToolCall(proc, agentKey, call);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`gateway answered ${res.status}: ${text}`);
  // A JSON body, or an event stream whose data line is the answer.
  const json = text.trimStart().startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6) ?? "");
  const message = JSON.parse(json) as { result?: ToolResult; error?: { message: string } };
  if (!message.result) throw new Error(`gateway error: ${json}`);
  return message.result;
}

function callAsAgent(
  proc: SwitchboardProcess,
  body: Record<string, unknown>,
  key = agentKey,
): Promise<Response> {
  return postCall(proc, key, body);
}

async function pendingApprovals(proc: SwitchboardProcess): Promise<Array<{ callId: string; key: unknown }>> {
  const res = await proc.api("GET", "/api/v1/approvals?status=pending");
  const { approvals } = (await res.json()) as {
    approvals: Array<{ call: { id: string; arguments?: { key?: unknown } } }>;
  };
  return approvals.map((approval) => ({ callId: approval.call.id, key: approval.call.arguments?.key }));
}

/** The id of the pending call whose arguments name `key`, once it is in the queue. */
async function pendingCallOf(proc: SwitchboardProcess, key: string): Promise<string> {
  let callId: string | undefined;
  await expect
    .poll(
      async () => {
        callId = (await pendingApprovals(proc)).find((p) => p.key === key)?.callId;
        return callId;
      },
      { timeout: 30_000 },
    )
    .toBeDefined();
  return callId as string;
}

async function getCall(proc: SwitchboardProcess, callId: string) {
  const res = await proc.api("GET", `/api/v1/calls/${callId}`);
  expect(res.status).toBe(200);
  return (
    (await res.json()) as {
      call: Record<string, unknown> & { status: string; approval: { decidedAt: string } };
    }
  ).call;
}

/** A call approved by the admin and run to its end through `proc`: what ran before it is counted. */
async function runSentinel(proc: SwitchboardProcess, key: string): Promise<void> {
  const answer = gatewayCall(proc, { tool: "counter__record", arguments: { key } });
  const callId = await pendingCallOf(a, key);
  const approved = await a.api("POST", `/api/v1/approvals/${callId}/approve`, {});
  expect(approved.status, await approved.clone().text()).toBe(200);
  expect((await answer).content[0]?.text).toBe(`recorded ${key}`);
  expect(countLines(countFile, key)).toBe(1);
}

async function waitServerReady(proc: SwitchboardProcess): Promise<void> {
  await expect
    .poll(
      async () => {
        const res = await proc.api("GET", "/api/v1/servers/counter");
        return res.ok ? ((await res.json()) as { server: { status: string } }).server.status : res.status;
      },
      { timeout: 60_000 },
    )
    .toBe("ready");
}
