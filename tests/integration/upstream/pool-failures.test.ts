// How the pool fails: each broken server gives an operator a sentence that says what happened,
// and one broken call never takes the connection down for everyone else.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { StoredValue } from "@/db/schema/servers";
import { egressPolicySchema } from "@/lib/policy/egress-schema";
import { instancePolicySchema } from "@/lib/policy/instance-policy-schema";
import { checkServerPolicy } from "@/lib/policy/server-policy";
import { policyRefusalError } from "@/lib/servers/server-policy-check";
import { createValueResolver } from "@/lib/upstream/connection-config";
import { ConnectionError } from "@/lib/upstream/connection-errors";
import {
  createRecordingPool,
  fixture,
  freePort,
  httpConfig,
  type RecordingPool,
  runningInGroups,
  stdioConfig,
  textOf,
  tsxArgs,
} from "@/tests/fixtures/mcp-servers/pool-harness";
import { type StatusServer, startStatusServer } from "@/tests/fixtures/mcp-servers/pool-http-status";

const flaky = (name: string, overrides = {}) =>
  stdioConfig(name, "node", tsxArgs(fixture("pool-flaky.ts")), overrides);

let rec: RecordingPool;
afterEach(async () => {
  const groups = rec?.groups ?? new Set<number>();
  await rec?.pool.closeAll();
  expect(runningInGroups(groups)).toEqual([]);
});

describe("stdio servers that fail to start", () => {
  it("crash on start: the exit code and the stderr message reach the error and the diagnostics", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(stdioConfig("crasher", "node", tsxArgs(fixture("pool-crash-on-start.ts"))));
    const error = await rec.pool.getClient("id-crasher").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toBe(
      '"crasher" exited with code 3 before completing the MCP handshake: pool-crash-on-start: FATAL: config file not found (ENOENT)',
    );
    expect((error as ConnectionError).stderrTail).toContain("loading /etc/pool-fixture/config.toml");

    const diagnostics = rec.pool.diagnostics("id-crasher");
    expect(diagnostics.exit).toMatchObject({ code: 3, signal: null });
    expect(diagnostics.lastError?.message).toContain("config file not found");
    expect(diagnostics.stderr).toContain("FATAL: config file not found");
    expect(diagnostics.commandLine).toBe(`node --import tsx ${fixture("pool-crash-on-start.ts")}`);
    expect(["disconnected", "connecting"]).toContain(diagnostics.state); // retrying, with backoff
    const exited = await rec.waitForEvent((e) => e.type === "process.exited");
    expect(exited).toMatchObject({ exit: { code: 3 }, stderrTail: expect.stringContaining("FATAL") });
  });

  it("hangs during initialize: a connect-timeout error, and the process (deaf to SIGTERM) is killed", async () => {
    rec = createRecordingPool({ killGraceMs: 300 });
    await rec.pool.upsert(
      stdioConfig("hanger", "node", tsxArgs(fixture("pool-hang-on-initialize.ts")), {
        connectTimeoutMs: 2000,
      }),
    );
    const error = await rec.pool.getClient("id-hanger").catch((e: unknown) => e);
    expect((error as ConnectionError).code).toBe("timeout");
    expect((error as Error).message).toMatch(
      /^"hanger" did not complete the MCP handshake within 2 s \(connect timeout\): pool-hang-on-initialize: pid \d+, reading stdin, never answering$/,
    );
    const diagnostics = rec.pool.diagnostics("id-hanger");
    expect(diagnostics.exit).toMatchObject({ signal: "SIGKILL" });
    expect(diagnostics.lastError?.stderrTail).toContain("ignoring SIGTERM");
    expect(runningInGroups(rec.groups)).toEqual([]);
  });

  it("a command that does not exist", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(stdioConfig("missing", "no-such-mcp-server-command", []));
    const error = await rec.pool.getClient("id-missing").catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'Cannot connect to "missing": Command not found: "no-such-mcp-server-command" (is it installed and on PATH?).',
    );
  });

  it("missing references are named, and nothing is spawned", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(
      flaky("unset", {
        env: { GH: { secret: "gh-token" }, HOME_DIR: { fromEnv: "POOL_TEST_SURELY_UNSET_VARIABLE" } },
      }),
    );
    const error = await rec.pool.getClient("id-unset").catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'Cannot connect to "unset": secret gh-token is not set; environment variable POOL_TEST_SURELY_UNSET_VARIABLE is not set.',
    );
    expect(rec.events.some((e) => e.type === "process.started")).toBe(false);
  });

  it("an egress policy refusal names the rule, and nothing is spawned", async () => {
    // The instance allows the fixture's launch; the workspace narrows it out.
    const launch = { program: "node", args: ["--import", "tsx", "{file}"], rest: true, audience: "everyone" };
    const policies = {
      instance: instancePolicySchema.parse({
        stdio: { launchSpecs: [{ ...launch, why: "the test's fixture" }] },
      }),
      workspace: egressPolicySchema.parse({ stdio: { allowedCommands: ["npx"] } }),
    };
    rec = createRecordingPool({
      checkPolicy: async (config) => {
        const decision = await checkServerPolicy(policies, config, { ownerLaunch: true });
        if (decision.kind === "deny") throw policyRefusalError(decision);
        return decision;
      },
    });
    await rec.pool.upsert(flaky("refused"));
    const error = await rec.pool.getClient("id-refused").catch((e: unknown) => e);
    expect((error as ConnectionError).code).toBe("policy_denied");
    expect((error as Error).message).toMatch(
      /^Cannot connect to "refused": Refused by the workspace's egress policy \(stdio\.allowedCommands\): the command "node" is not in this workspace's allowed commands/,
    );
    expect(rec.events.some((e) => e.type === "process.started")).toBe(false);
  });
});

describe("secrets", () => {
  it("resolved values never appear in stderr, errors, events or the command line", async () => {
    const token = "tok_9f8e7d6c5b4a-very-secret";
    const resolveValue = createValueResolver({
      readSecret: async ({ tenantId, name }) =>
        tenantId === "tenant-1" && name === "api-token" ? token : undefined,
    });
    rec = createRecordingPool({ resolveValue });
    const env: Record<string, StoredValue> = { API_TOKEN: { secret: "api-token" }, LOG_LEVEL: "debug" };
    await rec.pool.upsert(flaky("leaky", { env }));
    await rec.pool.getClient("id-leaky");
    await rec.waitForEvent((e) => e.type === "stderr" && e.text.includes("ready"));

    const diagnostics = rec.pool.diagnostics("id-leaky");
    expect(diagnostics.stderr).toContain("authenticating with token [redacted]");
    expect(diagnostics.commandLine).toBe(
      `API_TOKEN=[redacted] LOG_LEVEL=debug node --import tsx ${fixture("pool-flaky.ts")}`,
    );
    expect(JSON.stringify(diagnostics)).not.toContain(token);
    expect(JSON.stringify(rec.events)).not.toContain(token);
    // The server did get the value.
    expect(textOf(await rec.pool.callTool("id-leaky", "echo", { text: "ok" }))).toBe("ok");
  });
});

describe("a call that breaks", () => {
  it("the server exits mid-call: the call fails at once with the exit code; the pool reconnects", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("quitter"));
    const firstPid = (await rec.pool.getClient("id-quitter")) && rec.pool.diagnostics("id-quitter").pid;

    const error = await rec.pool.callTool("id-quitter", "exit_now", { code: 42 }).catch((e: unknown) => e);
    expect((error as ConnectionError).code).toBe("upstream_unavailable");
    expect((error as Error).message).toBe(
      '"quitter" exited with code 42 during tools/call "exit_now": pool-flaky: exiting with code 42 in the middle of a call',
    );

    await rec.waitForEvent((e) => e.serverId === "id-quitter" && e.type === "process.exited");
    await rec.waitForState("id-quitter", "ready");
    expect(textOf(await rec.pool.callTool("id-quitter", "echo", { text: "back" }))).toBe("back");
    expect(rec.pool.diagnostics("id-quitter").pid).not.toBe(firstPid);
    expect(rec.pool.diagnostics("id-quitter").exit).toMatchObject({ code: 42 });
  });

  it("an oversized result fails that call only; the connection stays up", async () => {
    rec = createRecordingPool({ maxMessageBytes: 256 * 1024 });
    await rec.pool.upsert(flaky("big"));
    const pid = (await rec.pool.getClient("id-big")) && rec.pool.diagnostics("id-big").pid;
    const error = await rec.pool.callTool("id-big", "huge", { bytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect((error as ConnectionError).code).toBe("upstream_error");
    expect((error as Error).message).toMatch(
      /^"big" answered tools\/call "huge" with an error: The server sent a 1\.0 MiB message, over the 256\.0 KiB limit/,
    );
    expect(textOf(await rec.pool.callTool("id-big", "echo", { text: "still here" }))).toBe("still here");
    expect(rec.pool.state("id-big")).toBe("ready");
    expect(rec.pool.diagnostics("id-big").pid).toBe(pid);
  });

  it("a call over the server's call timeout fails with a timeout error; the next call works", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("slowpoke", { callTimeoutMs: 700 }));
    const error = await rec.pool.callTool("id-slowpoke", "slow", { ms: 60_000 }).catch((e: unknown) => e);
    expect((error as ConnectionError).code).toBe("timeout");
    expect((error as Error).message).toBe('"slowpoke" did not answer tools/call "slow" within 700 ms.');
    expect(textOf(await rec.pool.callTool("id-slowpoke", "echo", { text: "next" }))).toBe("next");
  });

  it("the caller's AbortSignal cancels the call on the server too", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(flaky("cancellable"));
    await rec.pool.getClient("id-cancellable");
    const controller = new AbortController();
    const call = rec.pool.callTool("id-cancellable", "slow", { ms: 60_000 }, { signal: controller.signal });
    // The operator presses cancel while the call runs on the server.
    await rec.waitForEvent(
      (e) => e.type === "stderr" && e.text.includes("slow call started"),
      "the call to start",
    );
    controller.abort(new Error("the operator pressed cancel"));
    await expect(call).rejects.toThrow("the operator pressed cancel");
    await rec.waitForEvent(
      (e) => e.type === "stderr" && e.text.includes("slow call cancelled by the client"),
    );
    expect(rec.pool.state("id-cancellable")).toBe("ready");
  });
});

describe("HTTP servers that refuse", () => {
  let unauthorized: StatusServer;
  let failing: StatusServer;

  beforeAll(async () => {
    [unauthorized, failing] = await Promise.all([
      startStatusServer(401),
      startStatusServer(500, "upstream exploded"),
    ]);
  });
  afterAll(async () => {
    await Promise.all([unauthorized?.close(), failing?.close()]);
  });

  it.each([
    ["streamable-http", "/mcp", "POST"],
    ["sse", "/sse", "GET"],
  ] as const)(
    "401 over %s: names the URL, the status and what to check",
    async (transport, urlPath, method) => {
      rec = createRecordingPool();
      await rec.pool.upsert(
        httpConfig("locked", transport, `${unauthorized.url}${urlPath}?token=should-not-show`, {
          auth: { type: "bearer", credential: "wrong-token-value" },
        }),
      );
      const error = await rec.pool.getClient("id-locked").catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        `Cannot connect to "locked": ${method} ${unauthorized.url}${urlPath} answered 401 Unauthorized: the credentials are missing or were refused (check the server's auth settings).`,
      );
      expect(rec.pool.diagnostics("id-locked").url).toBe(`${unauthorized.url}${urlPath}`);
    },
  );

  it("500 over streamable HTTP: a server-side failure", async () => {
    rec = createRecordingPool();
    await rec.pool.upsert(httpConfig("broken", "streamable-http", `${failing.url}/mcp`));
    const error = await rec.pool.getClient("id-broken").catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `Cannot connect to "broken": POST ${failing.url}/mcp answered 500 Internal Server Error: the server failed on its side.`,
    );
  });

  it("nothing listening: connection refused, naming host and port", async () => {
    const port = await freePort();
    rec = createRecordingPool();
    await rec.pool.upsert(httpConfig("nobody", "streamable-http", `http://127.0.0.1:${port}/mcp`));
    const error = await rec.pool.getClient("id-nobody").catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `Cannot connect to "nobody": connection refused by 127.0.0.1:${port} (ECONNREFUSED): nothing is listening there`,
    );
  });

  it("the auth header is sent, resolved at connect time", async () => {
    const seen: Array<string | undefined> = [];
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => {
      seen.push(req.headers["x-api-key"] as string | undefined);
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      rec = createRecordingPool({
        resolveValue: createValueResolver({ readSecret: async () => "key-from-the-vault" }),
      });
      await rec.pool.upsert(
        httpConfig("keyed", "streamable-http", `http://127.0.0.1:${port}/mcp`, {
          auth: { type: "api_key", headerName: "X-API-Key", credential: { secret: "vault-key" } },
        }),
      );
      await rec.pool.getClient("id-keyed").catch(() => {});
      expect(seen[0]).toBe("key-from-the-vault");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
