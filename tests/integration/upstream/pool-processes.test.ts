// No orphans, ever: every process a stdio server starts — including what launchers like npx
// start beneath it — is gone after disconnect, shutdown, or the death of the launcher.
import { afterEach, describe, expect, it, vi } from "vitest";
import { listDescendants, listGroupMembers } from "@/lib/upstream/transport/process-group";
import {
  binOf,
  createRecordingPool,
  fixture,
  isRunning,
  type RecordingPool,
  repoRoot,
  runningInGroups,
  stdioConfig,
  textOf,
  tsxArgs,
} from "@/tests/fixtures/mcp-servers/pool-harness";

let rec: RecordingPool;
afterEach(async () => {
  await rec?.pool.closeAll();
  // Count this test process's children once everything is closed: there must be none left.
  expect(listDescendants(process.pid)).toEqual([]);
});

/** A pid the server or its launcher printed on stderr, e.g. "pool-flaky: ready (pid N)". */
async function printedPid(id: string, pattern: RegExp): Promise<number> {
  await rec.waitForEvent(
    (e) => e.serverId === id && e.type === "stderr" && pattern.test(rec.pool.diagnostics(id).stderr),
  );
  return Number(pattern.exec(rec.pool.diagnostics(id).stderr)?.[1]);
}
const serverPid = (id: string) => printedPid(id, /pool-flaky: ready \(pid (\d+)\)/);
const helperPid = (id: string) => printedPid(id, /pool-launcher: helper pid (\d+)/);

const launched = (name: string) =>
  stdioConfig(name, "node", tsxArgs(fixture("pool-launcher.ts"), fixture("pool-flaky.ts")));

describe("process groups", () => {
  it("a launcher's grandchild runs in the launcher's group and is gone after closeAll", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(launched("launched"));
    expect(textOf(await rec.pool.callTool("id-launched", "echo", { text: "via launcher" }))).toBe(
      "via launcher",
    );
    const launcher = rec.pool.diagnostics("id-launched").pid as number;
    const grandchild = await serverPid("id-launched");
    const helper = await helperPid("id-launched");
    expect(grandchild).not.toBe(launcher);
    expect(listGroupMembers(launcher)).toEqual(expect.arrayContaining([launcher, grandchild, helper]));

    await rec.pool.closeAll();
    expect(isRunning(launcher)).toBe(false);
    expect(isRunning(grandchild)).toBe(false);
    expect(isRunning(helper)).toBe(false); // deaf to EOF and SIGTERM: only the group's SIGKILL stops it
    expect(runningInGroups(rec.groups)).toEqual([]);
  });

  it("when only the launcher dies, its orphaned child is stopped too and the pool reconnects", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(launched("orphan-maker"));
    await rec.pool.getClient("id-orphan-maker");
    const launcher = rec.pool.diagnostics("id-orphan-maker").pid as number;
    const grandchild = await serverPid("id-orphan-maker");
    const helper = await helperPid("id-orphan-maker");

    process.kill(launcher, "SIGKILL");
    await rec.waitForEvent((e) => e.type === "process.exited" && e.pid === launcher);
    await rec.waitForState("id-orphan-maker", "ready");
    // The old group gets its grace period to go; then nothing of it may be left.
    await vi.waitFor(() => expect([grandchild, helper].filter(isRunning)).toEqual([]), { timeout: 10_000 });
    expect(textOf(await rec.pool.callTool("id-orphan-maker", "echo", { text: "new tree" }))).toBe("new tree");
  });

  it("a descendant that left the group (setsid) is stopped too, found by ancestry", async () => {
    rec = createRecordingPool({ killGraceMs: 300 });
    await rec.pool.upsert({ ...launched("escapist"), env: { POOL_LAUNCHER_ESCAPE: "1" } });
    await rec.pool.getClient("id-escapist");
    const escaped = await printedPid("id-escapist", /pool-launcher: escaped pid (\d+)/);
    expect(listGroupMembers(rec.pool.diagnostics("id-escapist").pid as number)).not.toContain(escaped);
    await rec.pool.closeAll();
    expect(isRunning(escaped)).toBe(false);
  });

  it("real npx: npm, its shell and the server all stop together", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(stdioConfig("via-npx", "npx", ["--no-install", "mcp-server-everything", "stdio"]));
    const client = await rec.pool.getClient("id-via-npx");
    expect(client.getServerVersion()?.name).toMatch(/everything/);
    const group = rec.pool.diagnostics("id-via-npx").pid as number;
    // npx → (sh →) node: more than one process in the group.
    expect((listGroupMembers(group) ?? []).length).toBeGreaterThan(1);

    await rec.pool.closeAll();
    expect(runningInGroups([group])).toEqual([]);
  });

  it("closeAll in the middle of a connect (a server deaf to SIGTERM) leaves nothing behind", async () => {
    rec = createRecordingPool({ killGraceMs: 300 });
    await rec.pool.upsert(stdioConfig("deaf", "node", tsxArgs(fixture("pool-hang-on-initialize.ts"))));
    await rec.waitForEvent((e) => e.type === "stderr" && e.text.includes("never answering"));
    expect(rec.pool.state("id-deaf")).toBe("connecting");
    await rec.pool.closeAll();
    expect(runningInGroups(rec.groups)).toEqual([]);
  });

  it("many servers at once, then shutdown: no process survives", async () => {
    rec = createRecordingPool();
    const configs = [
      stdioConfig("many-1", "node", tsxArgs(fixture("pool-flaky.ts"))),
      stdioConfig("many-2", "node", [binOf("mcp-server-everything"), "stdio"]),
      launched("many-3"),
      stdioConfig("many-4", "node", tsxArgs(fixture("pool-crash-on-start.ts")), { cwd: repoRoot }),
    ];
    for (const config of configs) await rec.pool.upsert(config);
    await Promise.all(configs.slice(0, 3).map((c) => rec.pool.getClient(c.id)));
    expect(listDescendants(process.pid).length).toBeGreaterThanOrEqual(4);
    await rec.pool.closeAll();
    expect(runningInGroups(rec.groups)).toEqual([]);
  });
});
