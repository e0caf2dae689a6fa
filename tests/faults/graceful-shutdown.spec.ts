import { existsSync, readdirSync, readFileSync } from "node:fs";
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
  type ProcessExit,
  postCall,
  postToolCall,
  type SwitchboardProcess,
  startCluster,
} from "../fixtures/cluster";

/*
 * SIGTERM is a graceful shutdown, not a crash (issue #16, item 4). A burst of `record` calls
 * (2 s each) goes through one process's gateway, plus two long calls that cannot finish within the
 * grace period; the process is sent SIGTERM mid-burst. Counted, not assumed: every call either
 * finished (its line written once) or ended as failed with the shutdown's reason (no line) — none
 * left running or pending, none run twice; requests during the grace period are answered 503
 * "shutting down"; the process exits 0, its stdio servers are gone, and it starts again at once on
 * the same data folder (on PGlite: the folder's lock was released).
 */

test.describe.configure({ mode: "serial" });

const GRACE_SECONDS = 5;
const SHORT_MS = 2_000;
/** Far beyond the grace period: such a call can only end by being stopped. */
const LONG_MS = 120_000;

type CallSummary = { id: string; status: string; error: { code: string; message: string } | null };
type CallDetail = CallSummary & { arguments: { key?: string } };
type Answer = { key: string; status: number | "refused"; body: string; retryAfter: string | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the counting server, lets nothing need approval, and returns an agent's key. */
async function prepare(proc: SwitchboardProcess, countFile: string): Promise<string> {
  await allowFixtureServers(proc);
  const policy = await proc.api("PUT", "/api/v1/policy/approvals", {
    requireApprovalFor: [],
    forbidSelfApproval: false,
  });
  expect(policy.status, await policy.clone().text()).toBe(200);
  const registered = await proc.api("POST", "/api/v1/servers", countingServer("counting", countFile));
  expect(registered.status, await registered.clone().text()).toBe(201);
  const agentKey = await createAgent(proc, `agent-${path.basename(countFile)}`, ["counting__*"]);
  // Ready once a call runs (the pool connects and discovers in the background).
  await expect
    .poll(async () => (await gatewayCall(proc, agentKey, "warm-up", 0)).body, { timeout: 60_000 })
    .toContain("recorded warm-up");
  return agentKey;
}

/** A plain tools/call on the process's /mcp (no session), as an agent would send it. */
async function gatewayCall(
  proc: SwitchboardProcess,
  agentKey: string,
  key: string,
  delayMs: number,
): Promise<Answer> {
  try {
    const res = await postToolCall(proc, agentKey, {
      id: key,
      tool: "counting__record",
      arguments: { key, delayMs },
    });
    return { key, status: res.status, body: await res.text(), retryAfter: res.headers.get("retry-after") };
  } catch (error) {
    // Connection refused or reset: the process had closed its server (or exited) — never a call.
    return { key, status: "refused", body: String((error as Error).message), retryAfter: null };
  }
}

/** The stdio servers a process started: its children running the counting server. */
function countingChildren(parentPid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return (
          ppid === parentPid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("counting-server")
        );
      } catch {
        return false; // exited while we looked
      }
    })
    .map(Number);
}

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Every call the keys name, read through `reader`, with its arguments. */
async function callsByKey(reader: SwitchboardProcess, keys: string[]): Promise<Map<string, CallDetail[]>> {
  const res = await reader.api("GET", "/api/v1/calls?limit=200");
  expect(res.status).toBe(200);
  const { calls } = (await res.json()) as { calls: CallSummary[] };
  const byKey = new Map<string, CallDetail[]>(keys.map((key) => [key, []]));
  for (const summary of calls) {
    const detail = await reader.api("GET", `/api/v1/calls/${summary.id}`);
    const { call } = (await detail.json()) as { call: CallDetail };
    const key = call.arguments.key;
    if (key !== undefined) byKey.get(key)?.push(call);
  }
  return byKey;
}

/**
 * The scenario: long calls first, then a burst of short ones, SIGTERM mid-burst; more requests
 * while it drains. Returns what the clients were told and the process's exit.
 */
async function burstAndTerminate(proc: SwitchboardProcess, agentKey: string, prefix: string) {
  const children = countingChildren(proc.pid);
  expect(children.length, "the counting server runs as a child of the process").toBeGreaterThan(0);

  const answers: Array<Promise<Answer>> = [];
  for (let i = 0; i < 2; i++) answers.push(gatewayCall(proc, agentKey, `${prefix}-long-${i}`, LONG_MS));
  let burst = 0;
  const sendBurst = async (count: number) => {
    for (let i = 0; i < count; i++) {
      answers.push(gatewayCall(proc, agentKey, `${prefix}-short-${burst++}`, SHORT_MS));
      await sleep(100);
    }
  };
  await sendBurst(8);
  const logBefore = proc.log().length;
  const exited = proc.kill("SIGTERM");
  // Mid-burst: the burst goes on while the process drains.
  // A process that dies at once (the crash this test is about) says how it ended.
  expect(await drainingOrExit(proc, logBefore, exited), "the process drains instead of dying").toBe(
    "draining",
  );
  await sendBurst(6);

  // A new request during the grace period (the long calls are still running): a clear refusal.
  const refusedCall = await gatewayCall(proc, agentKey, `${prefix}-during-grace`, 0);
  const refusedRest = await postCall(proc, agentKey, {
    tool: "counting__record",
    arguments: { key: `${prefix}-rest-during-grace`, delayMs: 0 },
  });
  const refusedRestBody = await refusedRest.text();

  const exit = await exited;
  return {
    exit,
    lateKeys: [refusedCall.key, `${prefix}-rest-during-grace`],
    children,
    answers: await Promise.all(answers),
    refusedCall,
    refusedRest: {
      status: refusedRest.status,
      body: refusedRestBody,
      retryAfter: refusedRest.headers.get("retry-after"),
    },
  };
}

/** "draining" once the process logs that it is shutting down; its exit if it dies first. */
async function drainingOrExit(proc: SwitchboardProcess, logFrom: number, exited: Promise<ProcessExit>) {
  let exit: ProcessExit | undefined;
  void exited.then((e) => {
    exit = e;
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (proc.log().slice(logFrom).includes("shutting down")) return "draining";
    if (exit) return exit;
    await sleep(50);
  }
  return "neither drained nor exited within 10 s";
}

/** What every run must show, whatever the database. */
async function expectCleanShutdown(
  outcome: Awaited<ReturnType<typeof burstAndTerminate>>,
  reader: SwitchboardProcess,
  countFile: string,
) {
  const { exit, children, answers, refusedCall, refusedRest, lateKeys } = outcome;
  expect(exit, "a SIGTERM is a clean exit").toEqual({ code: 0, signal: null });

  // New requests during the grace period: 503, a JSON-RPC error naming the shutdown, Retry-After.
  expect(refusedCall.status).toBe(503);
  expect(JSON.parse(refusedCall.body)).toMatchObject({
    jsonrpc: "2.0",
    error: { message: expect.stringContaining("shutting down") },
  });
  expect(refusedCall.retryAfter).toMatch(/^\d+$/);
  expect(refusedRest.status, refusedRest.body).toBe(503);
  expect(refusedRest.body).toContain("shutting down");
  expect(refusedRest.retryAfter).toMatch(/^\d+$/);

  // Its stdio servers went with it (the pids, not a name).
  for (const pid of children) expect(isRunning(pid), `stdio server ${pid}`).toBe(false);

  // Every call: finished once (line counted once) or failed with the shutdown's reason (no line);
  // never running, pending or approved; never two calls for one request.
  const keys = [...answers.map((a) => a.key), ...lateKeys];
  const byKey = await callsByKey(reader, keys);
  const tally = { finished: 0, interrupted: 0, refused: 0 };
  for (const answer of answers) {
    const calls = byKey.get(answer.key) ?? [];
    const lines = countLines(countFile, answer.key);
    expect(calls.length, `${answer.key}: one call at most`).toBeLessThanOrEqual(1);
    const [call] = calls;
    if (!call) {
      // Refused before it was taken: answered 503 (or the server had closed), never run.
      expect([503, "refused"], `${answer.key}: ${answer.body}`).toContain(answer.status);
      expect(lines, `${answer.key} was refused, yet ran`).toBe(0);
      tally.refused++;
      continue;
    }
    if (call.status === "succeeded") {
      expect(lines, `${answer.key} succeeded: ran once`).toBe(1);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(`recorded ${answer.key}`);
      tally.finished++;
    } else {
      expect(call.status, `${answer.key}: ${JSON.stringify(call.error)}`).toBe("failed");
      expect(call.error?.message).toContain("shut down");
      expect(lines, `${answer.key} failed: never ran to its end`).toBe(0);
      tally.interrupted++;
    }
  }
  // The refused requests during the grace period left no call at all.
  for (const key of lateKeys) expect(byKey.get(key), key).toEqual([]);
  // The scenario happened as meant: calls in flight finished, long ones were stopped, late ones refused.
  expect(tally.finished, JSON.stringify(tally)).toBeGreaterThan(0);
  expect(tally.interrupted, JSON.stringify(tally)).toBe(2);
  expect(tally.refused, JSON.stringify(tally)).toBeGreaterThan(0);
  return tally;
}

test.describe("on PostgreSQL, two processes", () => {
  let cluster: Cluster;
  const countFile = path.join(countDir(), "count.log");

  test.beforeAll(async () => {
    cluster = await startCluster({
      processes: 2,
      env: { SWITCHBOARD_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) },
    });
  });
  test.afterAll(async () => {
    await cluster?.stop();
  });

  test("SIGTERM mid-burst: calls finish or fail cleanly, late ones are refused, exit 0, restart works", async () => {
    const [a, b] = cluster.processes;
    if (!a || !b) throw new Error("two processes expected");
    const agentKey = await prepare(a, countFile);

    const outcome = await burstAndTerminate(a, agentKey, "pg");
    // Read through B: nothing of A's is left for a sweep to find.
    const tally = await expectCleanShutdown(outcome, b, countFile);
    console.log(`[graceful-shutdown] PostgreSQL: ${JSON.stringify(tally)}`);
    const running = await (
      await b.api("GET", "/api/v1/calls?status=running,pending_approval,approved")
    ).json();
    expect((running as { calls: unknown[] }).calls).toEqual([]);

    // An immediate restart serves calls again.
    await a.start();
    await expect
      .poll(async () => (await gatewayCall(a, agentKey, "pg-after-restart", 0)).body, { timeout: 60_000 })
      .toContain("recorded pg-after-restart");
    expect(countLines(countFile, "pg-after-restart")).toBe(1);
  });
});

test.describe("on PGlite, one process", () => {
  let proc: SwitchboardProcess | undefined;
  let agentKey = "";
  const countFile = path.join(countDir(), "count.log");

  test.afterAll(async () => {
    await proc?.stop();
  });

  test("SIGTERM mid-burst releases the data folder: the restart opens it at once", async () => {
    const apiKey = `sb_pglite-${Date.now().toString(36)}abcdefghijklmnop`;
    proc = await launchSwitchboard({
      name: "pglite",
      apiKey,
      env: {
        SWITCHBOARD_BOOTSTRAP_API_KEY: apiKey,
        SWITCHBOARD_SEED_DEMO: "false",
        SWITCHBOARD_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
        NEXT_TELEMETRY_DISABLED: "1",
      },
    });
    agentKey = await prepare(proc, countFile);
    const dataDir = path.join(path.dirname(proc.logFile), "pglite-data");
    expect(existsSync(path.join(dataDir, "switchboard.lock"))).toBe(true);

    const outcome = await burstAndTerminate(proc, agentKey, "pglite");
    expect(existsSync(path.join(dataDir, "switchboard.lock")), "the lock is released").toBe(false);

    // Restart on the same folder: it opens (no stale lock, PGlite closed cleanly) and serves.
    await proc.start();
    const tally = await expectCleanShutdown(outcome, proc, countFile);
    console.log(`[graceful-shutdown] PGlite: ${JSON.stringify(tally)}`);
    expect(proc.log()).not.toContain("interrupted by the last stop marked failed");
    await expect
      .poll(async () => (await gatewayCall(proc as SwitchboardProcess, agentKey, "pglite-after", 0)).body, {
        timeout: 60_000,
      })
      .toContain("recorded pglite-after");
  });

  test("a second SIGTERM stops at once; the call it cut is ended at the next start", async () => {
    if (!proc) throw new Error("the PGlite process did not start");
    const children = countingChildren(proc.pid);
    const cut = gatewayCall(proc, agentKey, "pglite-cut", LONG_MS);
    // Running: on record in the call history (PGlite writes a call's start once it ran 50 ms).
    await expect
      .poll(
        async () =>
          ((await callsByKey(proc as SwitchboardProcess, ["pglite-cut"])).get("pglite-cut") ?? []).map(
            (c) => c.status,
          ),
        {
          timeout: 30_000,
        },
      )
      .toEqual(["running"]);
    const logBefore = proc.log().length;
    const exited = proc.kill("SIGTERM");
    expect(await drainingOrExit(proc, logBefore, exited)).toBe("draining");
    process.kill(proc.pid, "SIGTERM");
    // Forced: the signal's exit code, not the graceful 0 (whose grace period has far to go).
    expect(await exited).toEqual({ code: 143, signal: null });
    expect((await cut).status).toBe("refused");
    for (const pid of children) expect(isRunning(pid), `stdio server ${pid}`).toBe(false);

    // The next start takes the dead process's lock over and ends the call it left running.
    await proc.start();
    expect(proc.log()).toContain("1 call(s) interrupted by the last stop marked failed");
    const [call] = (await callsByKey(proc, ["pglite-cut"])).get("pglite-cut") ?? [];
    expect(call?.status).toBe("failed");
    expect(countLines(countFile, "pglite-cut")).toBe(0);
  });
});
