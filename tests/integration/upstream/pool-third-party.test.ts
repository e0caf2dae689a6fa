// The pool against real servers over real transports: server-everything (stdio, SSE, streamable
// HTTP), server-filesystem (stdio) and the shipped demo servers.
import { realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  binOf,
  createRecordingPool,
  demoServer,
  type EverythingHttp,
  httpConfig,
  type RecordingPool,
  repoRoot,
  runningInGroups,
  startEverythingHttp,
  stdioConfig,
  textOf,
  tsxArgs,
} from "@/tests/fixtures/mcp-servers/pool-harness";
import { makeSharedTempDir } from "../../fixtures/shared-temp-dir";

describe("server-everything", () => {
  let rec: RecordingPool;
  let sse: EverythingHttp;
  let streamable: EverythingHttp;

  beforeAll(async () => {
    [sse, streamable] = await Promise.all([
      startEverythingHttp("sse"),
      startEverythingHttp("streamableHttp"),
    ]);
    rec = createRecordingPool();
    await rec.pool.upsert(stdioConfig("everything-stdio", "node", [binOf("mcp-server-everything"), "stdio"]));
    await rec.pool.upsert(httpConfig("everything-sse", "sse", sse.url));
    await rec.pool.upsert(httpConfig("everything-http", "streamable-http", streamable.url));
  });

  afterAll(async () => {
    await rec?.pool.closeAll();
    await Promise.all([sse?.stop(), streamable?.stop()]);
  });

  const transports = [
    { id: "id-everything-stdio", transport: "stdio" },
    { id: "id-everything-sse", transport: "sse" },
    { id: "id-everything-http", transport: "streamable-http" },
  ];

  it.each(transports)(
    "over $transport: connects, introduces itself and lists its catalog",
    async ({ id }) => {
      const client = await rec.pool.getClient(id);
      expect(rec.pool.state(id)).toBe("ready");
      expect(client.getServerVersion()?.name).toMatch(/everything/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
      expect((await client.listResources()).resources.length).toBeGreaterThan(0);
      expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
      const connected = await rec.waitForEvent((e) => e.serverId === id && e.type === "connected");
      expect(connected).toMatchObject({ serverInfo: { name: expect.stringMatching(/everything/) } });
      expect(connected.type === "connected" && connected.capabilities?.tools).toBeTruthy();
    },
  );

  it.each(transports)("over $transport: calls tools and answers health checks", async ({ id }) => {
    const result = await rec.pool.callTool(id, "get-sum", { a: 2, b: 40 });
    expect(textOf(result)).toContain("42");
    const health = await rec.pool.healthCheck(id);
    expect(health).toMatchObject({ ok: true, probe: "ping" });
    expect(health.latencyMs).toEqual(expect.any(Number));
  });

  it.each(transports)("over $transport: relays progress notifications to the caller", async ({ id }) => {
    const progress: number[] = [];
    const result = await rec.pool.callTool(
      id,
      "trigger-long-running-operation",
      { duration: 0.3, steps: 3 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(textOf(result)).toMatch(/completed/i);
    expect(progress.length).toBeGreaterThan(0);
  });

  it("reports tools/list_changed so the catalog can list again", async () => {
    // server-everything registers tools after `initialized` and says so.
    await rec.pool.getClient("id-everything-stdio");
    await rec.waitForEvent((e) => e.serverId === "id-everything-stdio" && e.type === "list.changed");
  });

  it("reuses one connection and one process for every call", async () => {
    const id = "id-everything-stdio";
    const first = await rec.pool.getClient(id);
    const pid = rec.pool.diagnostics(id).pid;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => rec.pool.callTool(id, "echo", { message: `m${i}` })),
    );
    expect(await rec.pool.getClient(id)).toBe(first);
    expect(rec.pool.diagnostics(id).pid).toBe(pid);
    expect(rec.events.filter((e) => e.serverId === id && e.type === "process.started")).toHaveLength(1);
  });
});

describe("server-filesystem over stdio", () => {
  let rec: RecordingPool;
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await makeSharedTempDir("pool-fs-"));
    await writeFile(path.join(dir, "hello.txt"), "hello from the pool test\n");
    rec = createRecordingPool();
    await rec.pool.upsert(stdioConfig("filesystem", "node", [binOf("mcp-server-filesystem"), dir]));
  });

  afterAll(async () => {
    await rec?.pool.closeAll();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps its own allowed folder: its roots request comes outside any call and is refused", async () => {
    const client = await rec.pool.getClient("id-filesystem");
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(10);
    const allowed = await rec.pool.callTool("id-filesystem", "list_allowed_directories", {});
    expect(textOf(allowed)).toContain(dir);
    const read = await rec.pool.callTool("id-filesystem", "read_text_file", {
      path: path.join(dir, "hello.txt"),
    });
    expect(textOf(read)).toContain("hello from the pool test");
  });
});

describe("the demo servers", () => {
  let rec: RecordingPool;

  beforeAll(async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(stdioConfig("local-tools", "node", tsxArgs(demoServer("local-tools.ts"))));
    await rec.pool.upsert(
      stdioConfig(
        "files",
        "node",
        tsxArgs(demoServer("files.ts"), path.join(repoRoot, "demo-servers", "sandbox")),
      ),
    );
  });

  afterAll(async () => {
    const groups = rec.groups;
    await rec?.pool.closeAll();
    expect(runningInGroups(groups)).toEqual([]);
  });

  it("local-tools answers echo and word_count", async () => {
    expect(textOf(await rec.pool.callTool("id-local-tools", "echo", { text: "through the pool" }))).toBe(
      "through the pool",
    );
    const counted = await rec.pool.callTool("id-local-tools", "word_count", { text: "one two three" });
    expect(counted.structuredContent).toMatchObject({ words: 3 });
  });

  it("files lists its sandbox", async () => {
    const client = await rec.pool.getClient("id-files");
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(rec.pool.state("id-files")).toBe("ready");
    expect(rec.pool.diagnostics("id-files").serverInfo?.name).toBe("files");
  });

  it("shares one connect between concurrent callers", async () => {
    await rec.pool.upsert(stdioConfig("local-tools-2", "node", tsxArgs(demoServer("local-tools.ts"))));
    const clients = await Promise.all(
      Array.from({ length: 5 }, () => rec.pool.getClient("id-local-tools-2")),
    );
    expect(new Set(clients).size).toBe(1);
    expect(
      rec.events.filter((e) => e.serverId === "id-local-tools-2" && e.type === "process.started"),
    ).toHaveLength(1);
  });
});

describe("an HTTP server that goes away and comes back", () => {
  let server: EverythingHttp | undefined;
  let rec: RecordingPool;

  afterEach(async () => {
    await rec?.pool.closeAll();
    await server?.stop();
  });

  it.each(["streamableHttp", "sse"] as const)(
    "%s: the next call fails clearly, the pool reconnects once the server is back",
    async (mode) => {
      server = await startEverythingHttp(mode);
      const port = Number(new URL(server.url).port);
      rec = createRecordingPool({
        supervision: { initialDelayMs: 50, maxDelayMs: 200, crashLoopFailures: 1000 },
      });
      const transport = mode === "sse" ? "sse" : "streamable-http";
      await rec.pool.upsert(httpConfig(`restart-${mode}`, transport, server.url));
      const id = `id-restart-${mode}`;
      expect(textOf(await rec.pool.callTool(id, "echo", { message: "before" }))).toContain("before");

      await server.stop();
      const error = await rec.pool.callTool(id, "echo", { message: "while down" }).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^tools/call "echo" to "restart-${mode}" failed: connection refused by 127\\.0\\.0\\.1:${port}`,
        ),
      );
      await rec.waitForState(id, "disconnected");

      server = await startEverythingHttp(mode, port);
      await rec.waitForState(id, "ready");
      expect(textOf(await rec.pool.callTool(id, "echo", { message: "after" }))).toContain("after");
    },
  );
});
