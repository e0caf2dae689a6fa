// Supervision: the pool notices a dead or silent server, brings it back without hammering it,
// calls a crash loop a crash loop, and probes health the way MCP allows (ping is optional).
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionConfig } from "@/lib/upstream/connection-config";
import {
  createRecordingPool,
  fixture,
  isRunning,
  type RecordingPool,
  runningInGroups,
  stdioConfig,
  textOf,
  tsxArgs,
} from "@/tests/fixtures/mcp-servers/pool-harness";
import { makeSharedTempDir } from "../../fixtures/shared-temp-dir";

const flaky = (name: string, overrides: Partial<ConnectionConfig> = {}) =>
  stdioConfig(name, "node", tsxArgs(fixture("pool-flaky.ts")), overrides);

let rec: RecordingPool;
afterEach(async () => {
  const groups = rec?.groups ?? new Set<number>();
  await rec?.pool.closeAll();
  expect(runningInGroups(groups)).toEqual([]);
});

describe("crash loop", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeSharedTempDir("pool-crash-loop-");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("repeated failures → crash-loop with a slow re-probe; a manual reconnect resets it", async () => {
    const marker = path.join(dir, "broken");
    await writeFile(marker, "");
    const supervision = {
      initialDelayMs: 20,
      maxDelayMs: 100,
      crashLoopFailures: 3,
      crashLoopProbeMs: 60_000,
    };
    rec = createRecordingPool({ supervision });
    await rec.pool.upsert(flaky("looper", { env: { POOL_FIXTURE_CRASH_IF_EXISTS: marker } }));
    await rec.waitForState("id-looper", "crash-loop");

    const starts = () => rec.events.filter((e) => e.type === "process.started").length;
    expect(starts()).toBe(3);
    const diagnostics = rec.pool.diagnostics("id-looper");
    expect(diagnostics.recentFailures).toBe(3);
    expect(diagnostics.lastError?.message).toContain("refusing to start");
    expect(diagnostics.exit).toMatchObject({ code: 5 });
    // The next probe is about a minute away, not a few milliseconds.
    expect(Date.parse(diagnostics.nextRetryAt ?? "") - Date.now()).toBeGreaterThan(30_000);
    // Callers are told at once, without another spawn per call.
    const error = await rec.pool.callTool("id-looper", "echo", { text: "x" }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^"looper" keeps failing \(crash loop\)\. The next attempt is at .*refusing to start/,
    );
    expect(starts()).toBe(3);

    await rm(marker);
    await rec.pool.reconnect("id-looper");
    expect(rec.pool.state("id-looper")).toBe("ready");
    expect(rec.pool.diagnostics("id-looper").recentFailures).toBe(0);
    expect(textOf(await rec.pool.callTool("id-looper", "echo", { text: "healed" }))).toBe("healed");
  });
});

describe("a stdio server killed from outside", () => {
  it("shows up with its signal and stderr tail, and the pool brings it back", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("victim"));
    await rec.pool.getClient("id-victim");
    const pid = rec.pool.diagnostics("id-victim").pid as number;
    process.kill(pid, "SIGKILL");

    const exited = await rec.waitForEvent((e) => e.type === "process.exited" && e.pid === pid);
    expect(exited).toMatchObject({ exit: { code: null, signal: "SIGKILL" } });
    expect(exited.type === "process.exited" && exited.stderrTail).toContain("pool-flaky: ready");
    await rec.waitForEvent(
      (e) => e.type === "state.changed" && e.to === "disconnected" && (e.error ?? "").includes("SIGKILL"),
    );
    await rec.waitForState("id-victim", "ready");
    expect(rec.pool.diagnostics("id-victim").pid).not.toBe(pid);
    expect(textOf(await rec.pool.callTool("id-victim", "echo", { text: "again" }))).toBe("again");
  });
});

describe("health", () => {
  it("ping answered: healthy, with latency", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("pinged"));
    await rec.pool.getClient("id-pinged");
    const result = await rec.pool.healthCheck("id-pinged");
    expect(result).toMatchObject({ ok: true, probe: "ping", latencyMs: expect.any(Number) });
    expect(rec.events.some((e) => e.type === "health.checked" && e.result.ok)).toBe(true);
    expect(rec.pool.diagnostics("id-pinged").lastHealth).toEqual(result);
  });

  it("no ping (it is optional): a server that lists its tools is healthy", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("no-ping", { env: { POOL_FIXTURE_NO_PING: "1" } }));
    await rec.pool.getClient("id-no-ping");
    expect(await rec.pool.healthCheck("id-no-ping")).toMatchObject({ ok: true, probe: "tools/list" });
    expect(await rec.pool.healthCheck("id-no-ping")).toMatchObject({ ok: true, probe: "tools/list" });
    expect(rec.pool.state("id-no-ping")).toBe("ready");
  });

  it("a silent server goes degraded, and back to ready when it answers again", async () => {
    rec = createRecordingPool({ supervision: { degradedProbeLimit: 100 } });
    await rec.pool.upsert(flaky("sleepy", { callTimeoutMs: 500 }));
    await rec.pool.callTool("id-sleepy", "freeze", { ms: 2500 });
    let result = await rec.pool.healthCheck("id-sleepy");
    expect(result).toMatchObject({
      ok: false,
      error: '"sleepy" did not answer the health probe within 500 ms.',
    });
    expect(rec.pool.state("id-sleepy")).toBe("degraded");
    for (let i = 0; i < 40 && !result.ok; i++) result = await rec.pool.healthCheck("id-sleepy");
    expect(result.ok).toBe(true);
    expect(rec.pool.state("id-sleepy")).toBe("ready");
    const transitions = rec.events.flatMap((e) => (e.type === "state.changed" ? [e.to] : []));
    expect(transitions).toEqual(["connecting", "ready", "degraded", "ready"]);
  });

  it("a server silent for too many probes is restarted", async () => {
    rec = createRecordingPool({ supervision: { degradedProbeLimit: 2 } });
    await rec.pool.upsert(flaky("stuck", { callTimeoutMs: 500 }));
    await rec.pool.callTool("id-stuck", "freeze", { ms: 600_000 });
    const stuckPid = rec.pool.diagnostics("id-stuck").pid as number;
    await rec.pool.healthCheck("id-stuck");
    expect(rec.pool.state("id-stuck")).toBe("degraded");
    await rec.pool.healthCheck("id-stuck");
    await rec.waitForState("id-stuck", "ready");
    expect(rec.pool.diagnostics("id-stuck").pid).not.toBe(stuckPid);
    expect(isRunning(stuckPid)).toBe(false);
  });

  it("runs periodically at the configured interval", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("periodic", { healthIntervalSeconds: 1 }));
    await rec.pool.getClient("id-periodic");
    const checks = () => rec.events.filter((e) => e.type === "health.checked");
    await rec.waitForEvent(() => checks().length >= 2, "two periodic health checks", 10_000);
    expect(checks().every((e) => e.type === "health.checked" && e.result.ok)).toBe(true);
  });

  it("not connected: reported as unhealthy with the reason, without connecting", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("off", { enabled: false }));
    expect(await rec.pool.healthCheck("id-off")).toMatchObject({
      ok: false,
      latencyMs: null,
      error: "Not connected (disabled).",
    });
  });
});

describe("configuration changes", () => {
  it("a changed command reconnects; a changed health interval does not", async () => {
    rec = createRecordingPool();
    const config = flaky("evolving");
    await rec.pool.upsert(config);
    await rec.pool.getClient("id-evolving");
    const pid = rec.pool.diagnostics("id-evolving").pid;

    await rec.pool.upsert({ ...config, healthIntervalSeconds: 120 });
    expect(rec.pool.diagnostics("id-evolving").pid).toBe(pid);

    await rec.pool.upsert({ ...config, env: { LOG_LEVEL: "debug" } });
    await rec.pool.getClient("id-evolving");
    expect(rec.pool.diagnostics("id-evolving").pid).not.toBe(pid);
    expect(isRunning(pid as number)).toBe(false);
  });

  it("disabling stops the process and refuses calls; enabling brings it back", async () => {
    rec = createRecordingPool();
    const config = flaky("toggled");
    await rec.pool.upsert(config);
    await rec.pool.getClient("id-toggled");
    const pid = rec.pool.diagnostics("id-toggled").pid as number;

    await rec.pool.upsert({ ...config, enabled: false });
    expect(rec.pool.state("id-toggled")).toBe("disabled");
    expect(isRunning(pid)).toBe(false);
    await expect(rec.pool.callTool("id-toggled", "echo", { text: "x" })).rejects.toThrow(
      '"toggled" is disabled.',
    );

    await rec.pool.upsert({ ...config, enabled: true });
    expect(textOf(await rec.pool.callTool("id-toggled", "echo", { text: "on" }))).toBe("on");
  });

  it("remove() stops the server and forgets it", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("gone"));
    await rec.pool.getClient("id-gone");
    const pid = rec.pool.diagnostics("id-gone").pid as number;
    await rec.pool.remove("id-gone");
    expect(isRunning(pid)).toBe(false);
    expect(rec.pool.state("id-gone")).toBeUndefined();
    await expect(rec.pool.getClient("id-gone")).rejects.toMatchObject({ code: "not_found" });
  });
});

it("reports tools/list_changed from the server", async () => {
  rec = createRecordingPool();
  await rec.pool.upsert(flaky("growing"));
  await rec.pool.callTool("id-growing", "add_tool", { name: "brand_new" });
  await rec.waitForEvent(
    (e) => e.type === "list.changed" && e.list === "tools" && e.serverId === "id-growing",
  );
  const { tools } = await (await rec.pool.getClient("id-growing")).listTools();
  expect(tools.map((t) => t.name)).toContain("brand_new");
});
