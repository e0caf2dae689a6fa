import path from "node:path";
import { expect, test } from "@playwright/test";
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
 * Issue #20: a principal's calls per minute bind it across every process of a deployment. Two
 * Switchboard processes on one PostgreSQL; an agent limited to PER_MINUTE calls a minute sends
 * CALLS calls at once, half to each process. The stdio server appends a line per call it runs, so
 * what ran is counted, not assumed: PER_MINUTE ran (plus what the bucket refilled while the burst
 * lasted), every other call was refused with 429 and Retry-After, and each one is on record.
 */

const PER_MINUTE = 5;
const CALLS = 16;

let cluster: Cluster;
let a: SwitchboardProcess;
let b: SwitchboardProcess;
let countFile: string;
let agentKey: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  cluster = await startCluster({ processes: 2 });
  [a, b] = cluster.processes as [SwitchboardProcess, SwitchboardProcess];
  await allowFixtureServers(a);
  countFile = path.join(countDir(), "count.log");
  // A read needs no approval: every call either runs at once or is refused by the limit.
  await registerCountingReadServer(a, "limited", countFile);
  agentKey = await createAgent(a, "bursty", ["limited__*"]);
  const limited = await a.api("PUT", "/api/v1/policy/limits", {
    principals: { bursty: { callsPerMinute: PER_MINUTE } },
  });
  expect(limited.status, await limited.clone().text()).toBe(200);
  // Both processes connected to the server, so neither spends the burst connecting.
  for (const proc of [a, b])
    await expect
      .poll(
        async () => {
          const res = await proc.api("GET", "/api/v1/servers/limited");
          return ((await res.json()) as { server: { status: string } }).server.status;
        },
        { timeout: 60_000 },
      )
      .toBe("ready");
});

test.afterAll(async () => {
  await cluster?.stop();
});

test("a principal's calls per minute hold across two processes on one database", async () => {
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: CALLS }, async (_, i) => {
      const res = await postCall(i % 2 === 0 ? a : b, agentKey, {
        tool: "limited__record",
        arguments: { key: `burst-${i}` },
        waitSeconds: 30,
      });
      const body = (await res.json()) as { call?: { id: string }; error?: { message: string } };
      return { status: res.status, retryAfter: res.headers.get("retry-after"), body };
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  // The bucket refills PER_MINUTE/60 a second: a slow burst may earn a token or two back.
  const refilled = Math.floor((seconds * PER_MINUTE) / 60);
  test.info().annotations.push({ type: "burst", description: `${CALLS} calls in ${seconds.toFixed(1)} s` });

  const ran = answers.filter((r) => r.status === 200);
  const refused = answers.filter((r) => r.status === 429);
  expect(ran.length + refused.length, JSON.stringify(answers.map((r) => r.status))).toBe(CALLS);
  expect(ran.length).toBeGreaterThanOrEqual(PER_MINUTE);
  expect(ran.length).toBeLessThanOrEqual(PER_MINUTE + refilled);
  // What the server did, counted in its own file: exactly the calls that were answered as run.
  expect(countLines(countFile)).toBe(ran.length);
  for (const refusal of refused) {
    expect(Number(refusal.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refusal.body.error?.message).toContain(`limit of ${PER_MINUTE} calls per minute`);
  }
  // Both processes refused some: the bucket is the database's, not either process's.
  const refusedBy = (proc: SwitchboardProcess) =>
    answers.filter((r, i) => r.status === 429 && (i % 2 === 0 ? a : b) === proc).length;
  expect(refusedBy(a) + refusedBy(b)).toBe(refused.length);
  expect(Math.min(refusedBy(a), refusedBy(b))).toBeGreaterThan(0);

  // Every call is on record, on either process: the ones that ran and the refusals.
  const listed = await a.api("GET", "/api/v1/calls?status=rate_limited&limit=100");
  const { calls } = (await listed.json()) as { calls: Array<{ id: string }> };
  expect(calls).toHaveLength(refused.length);
});
