import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as healthChecksRoute } from "@/app/api/v1/health-checks/route";
import { GET as diagnosticsRoute } from "@/app/api/v1/servers/[name]/diagnostics/route";
import { POST as healthCheckRoute } from "@/app/api/v1/servers/[name]/health-check/route";
import { POST as refreshRoute } from "@/app/api/v1/servers/[name]/refresh/route";
import { GET as snapshotsRoute } from "@/app/api/v1/servers/[name]/snapshots/route";
import { GET as toolsRoute } from "@/app/api/v1/servers/[name]/tools/route";
import { POST as postServerRoute } from "@/app/api/v1/servers/route";
import { events, serverStatus } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { ServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { deleteServer, getServerRowOrThrow, registerServer, updateServer } from "@/lib/servers/registry";
import { listGroupMembers } from "@/lib/upstream/transport/process-group";
import { createTestApiKey, openProcessTestDatabase } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { demoServer, fixture, tsxArgs } from "../fixtures/mcp-servers/pool-harness";
import { runCli } from "../fixtures/run-cli";

/*
 * The live side end to end: registering a server through the registry makes the runtime's pool
 * connect it, and what happens lands in the database and the REST API. Real stdio servers.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

const named = (name: string) => ({ params: Promise.resolve({ name }) });

describe("server runtime", () => {
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;
  let auth: Record<string, string>;
  const tenantId = () => handle.defaultTenant.id;

  const statusOf = async (name: string) => {
    const row = await getServerRowOrThrow(handle.db, { tenantId: tenantId(), name });
    const [status] = await handle.db.select().from(serverStatus).where(eq(serverStatus.serverId, row.id));
    return status;
  };
  const untilState = (name: string, state: string) =>
    eventually(
      async () => ((await statusOf(name))?.state === state ? true : undefined),
      `${name} → ${state}`,
    );
  const api = async (
    route: (req: Request, ctx: never) => Promise<Response>,
    name: string,
    method = "GET",
  ) => {
    const res = await route(
      new Request(`http://127.0.0.1:3000/x`, { method, headers: auth }),
      named(name) as never,
    );
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    auth = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    runtime = new ServerRuntime(handle.db, { supervision: { initialDelayMs: 200, maxDelayMs: 1000 } });
    await runtime.start();
    setServerRuntime(runtime);
  });
  afterAll(async () => {
    await runtime?.stop();
    setServerRuntime(undefined);
    await handle?.close();
  });

  it("connects a newly registered server, stores its catalog and answers health checks", async () => {
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: tenantId(),
      input: {
        name: "local-tools",
        transport: "stdio",
        command: "node",
        args: tsxArgs(demoServer("local-tools.ts")),
      },
    });
    await untilState("local-tools", "ready");

    const tools = await eventually(async () => {
      const { body } = await api(toolsRoute, "local-tools");
      return body.tools.length === 4 ? body.tools : undefined;
    }, "the catalog");
    expect(tools.map((t: { gatewayName: string }) => t.gatewayName).sort()).toEqual([
      "local-tools__current_time",
      "local-tools__echo",
      "local-tools__word_count",
      "local-tools__write_note",
    ]);
    const { body: snapshots } = await api(snapshotsRoute, "local-tools");
    expect(snapshots.snapshots).toHaveLength(1);

    const health = await api(healthCheckRoute, "local-tools", "POST");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true });
    expect(typeof health.body.latencyMs).toBe("number");

    // Refreshing an unchanged catalog records no new snapshot.
    const refresh = await api(refreshRoute, "local-tools", "POST");
    expect(refresh.body).toMatchObject({ changed: false, problems: [] });

    const recorded = await handle.db
      .select({ type: events.type })
      .from(events)
      .where(eq(events.tenantId, tenantId()));
    expect(recorded.map((e) => e.type)).toEqual(
      expect.arrayContaining(["server.state_changed", "catalog.changed"]),
    );
  });

  it("shows why a server that crashes on start is down: exit code and its stderr", async () => {
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: tenantId(),
      input: {
        name: "broken",
        transport: "stdio",
        command: "node",
        args: tsxArgs(fixture("pool-crash-on-start.ts")),
      },
    });
    const diagnostics = await eventually(async () => {
      const { body } = await api(diagnosticsRoute, "broken");
      return body.exit?.code === 3 ? body : undefined;
    }, "the crash to be diagnosed");
    expect(diagnostics.stderrTail).toContain("FATAL: config file not found");
    expect(diagnostics.lastError.message).toContain("config file not found");
    const status = await statusOf("broken");
    expect(status?.exitCode).toBe(3);
    expect(status?.lastError).toContain("config file not found");
  });

  it("probes many servers in one request: the healthy, the crashed, and a named subset", async () => {
    const checkMany = async (body: unknown) => {
      const res = await healthChecksRoute(
        new Request("http://127.0.0.1:3000/api/v1/health-checks", {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({}) } as never,
      );
      return { status: res.status, body: await res.json() };
    };
    const all = await checkMany({});
    expect(all.status).toBe(200);
    expect(all.body.results.map((r: { server: string; ok: boolean }) => [r.server, r.ok])).toEqual([
      ["broken", false],
      ["local-tools", true],
    ]);
    expect(all.body.results[0].error).toMatch(/not connected|not running/i);
    expect(typeof all.body.results[1].latencyMs).toBe("number");

    const one = await checkMany({ servers: ["local-tools"] });
    expect(one.body.results).toHaveLength(1);
    expect(one.body.results[0]).toMatchObject({ server: "local-tools", ok: true });

    const unknown = await checkMany({ servers: ["local-tools", "nope"] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('"nope"');
    const bad = await checkMany({ servers: "local-tools" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fieldErrors.servers).toBeDefined();

    // `switchboard servers health --all`: the same request, a table, and exit 1 for the crashed one.
    const bridge = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await healthChecksRoute(
        new Request(new URL(req.url ?? "/", "http://127.0.0.1"), {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
        { params: Promise.resolve({}) } as never,
      );
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
    });
    await new Promise<void>((resolve) => bridge.listen(0, "127.0.0.1", resolve));
    try {
      const cli = await runCli(["servers", "health", "--all"], {
        PATH: process.env.PATH,
        HOME: "/nonexistent",
        NO_COLOR: "1",
        SWITCHBOARD_URL: `http://127.0.0.1:${(bridge.address() as AddressInfo).port}`,
        SWITCHBOARD_API_KEY: auth.authorization?.slice("Bearer ".length),
      } as Record<string, string> as NodeJS.ProcessEnv);
      expect(cli.code, cli.stderr).toBe(1);
      expect(cli.stdout).toMatch(/broken\s+unhealthy/);
      expect(cli.stdout).toMatch(/local-tools\s+healthy\s+\d+ ms/);
      expect(cli.stderr).toContain("1 of 2 servers are unhealthy");
    } finally {
      await new Promise((resolve) => bridge.close(resolve));
    }
  });

  it("notices a killed process within seconds and brings the server back", async () => {
    const { body: before } = await api(diagnosticsRoute, "local-tools");
    const pid = before.live.pid as number;
    process.kill(-pid, "SIGKILL");
    await eventually(async () => {
      const rows = await handle.db
        .select()
        .from(events)
        .where(and(eq(events.tenantId, tenantId()), eq(events.type, "server.process_exited")));
      return rows.some((r) => (r.data as { pid?: number }).pid === pid) ? true : undefined;
    }, "the exit to be recorded");
    expect((await statusOf("local-tools"))?.exitSignal).toBe("SIGKILL");
    await untilState("local-tools", "ready");
    const { body: after } = await api(diagnosticsRoute, "local-tools");
    expect(after.live.pid).not.toBe(pid);
  });

  it("disabling stops the process; deleting forgets the server", async () => {
    const { body } = await api(diagnosticsRoute, "local-tools");
    const pid = body.live.pid as number;
    await updateServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: tenantId(),
      name: "local-tools",
      patch: { enabled: false },
    });
    await untilState("local-tools", "disabled");
    await eventually(
      async () => (listGroupMembers(pid)?.length === 0 ? true : undefined),
      "the process group to end",
    );
    const refused = await api(healthCheckRoute, "local-tools", "POST");
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/disabled/);
    const many = await healthChecksRoute(
      new Request("http://127.0.0.1:3000/api/v1/health-checks", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ servers: ["local-tools"] }),
      }),
      { params: Promise.resolve({}) } as never,
    );
    expect(await many.json()).toEqual({
      results: [],
      skipped: [{ server: "local-tools", reason: "disabled" }],
    });

    await deleteServer(handle.db, { tenantId: tenantId(), name: "broken", by: null });
    await eventually(async () => (runtime.pool.ids().length === 1 ? true : undefined), "the pool to drop it");
  });

  it("refuses to register a shell no launch spec allows, naming the rule and who can allow it", async () => {
    const res = await postServerRoute(
      new Request("http://127.0.0.1:3000/api/v1/servers", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "shell", transport: "stdio", command: "/bin/sh", args: ["-c", "id"] }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error.code).toBe("policy_denied");
    expect(body.error.message).toMatch(/^Refused by the instance policy \(stdio\.launchSpecs\)/);
    expect(body.error.fieldErrors.command[0]).toContain("/bin/sh -c id");
    expect(body.error.fieldErrors.command[0]).toContain("Only an instance owner can allow it");
  });
});
