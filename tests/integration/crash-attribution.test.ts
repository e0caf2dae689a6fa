import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as auditRoute } from "@/app/api/v1/audit/route";
import { POST as callsRoute } from "@/app/api/v1/calls/route";
import { GET as diagnosticsRoute } from "@/app/api/v1/servers/[name]/diagnostics/route";
import { POST as reconnectRoute } from "@/app/api/v1/servers/[name]/reconnect/route";
import { PATCH as toolRoute } from "@/app/api/v1/tools/[id]/route";
import { tools } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { ServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { registerServer } from "@/lib/servers/registry";
import { countLines } from "../fixtures/cluster";
import { createTestAgent, createTestApiKey, openProcessTestDatabase } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { type GatewayListener, listenGateway } from "../fixtures/gateway-listener";
import { fixture, tsxArgs } from "../fixtures/mcp-servers/pool-harness";
import { bearer, sendTo } from "../fixtures/route-request";
import { makeSharedTempDir } from "../fixtures/shared-temp-dir";

/*
 * Issue #16, item 8: a call that crashes its server is named in the server's diagnostics (who,
 * which tool, when), and an admin can quarantine the tool: refused by REST and the gateway with a
 * clear 403, never sent to the server (counted in the counting server's file), clearing audited.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

describe("crash attribution and tool quarantine", () => {
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;
  let listener: GatewayListener;
  let adminKey: string;
  let agent: { id: string; key: string };
  let dir: string;
  let countFile: string;
  const tenantId = () => handle.defaultTenant.id;
  const toolId = async (name: string) => {
    const [row] = await handle.db
      .select({ id: tools.id })
      .from(tools)
      .where(and(eq(tools.tenantId, tenantId()), eq(tools.gatewayName, name), isNull(tools.removedAt)));
    if (!row) throw new Error(`no tool ${name}`);
    return row.id;
  };
  const call = (tool: string, args: Record<string, unknown> = {}) =>
    sendTo(callsRoute, "/api/v1/calls", {
      method: "POST",
      headers: bearer(agent.key),
      body: { tool, arguments: args },
    });
  const patchTool = async (name: string, body: Record<string, unknown>) => {
    const id = await toolId(name);
    return sendTo(toolRoute, `/api/v1/tools/${id}`, {
      method: "PATCH",
      headers: bearer(adminKey),
      body,
      params: { id },
    });
  };
  const untilReady = () =>
    eventually(async () => {
      const { body } = await sendTo(diagnosticsRoute, "/x", {
        headers: bearer(adminKey),
        params: { name: "counting" },
      });
      return body.live?.state === "ready" ? true : undefined;
    }, "counting to be ready");

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    adminKey = await createTestApiKey(handle, ["admin"]);
    dir = await makeSharedTempDir("switchboard-crash-");
    countFile = path.join(dir, "count.log");
    runtime = new ServerRuntime(handle.db, { supervision: { initialDelayMs: 100, maxDelayMs: 300 } });
    await runtime.start();
    setServerRuntime(runtime);
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: tenantId(),
      input: {
        name: "counting",
        transport: "stdio",
        command: "node",
        args: tsxArgs(fixture("counting-server.ts")),
        env: { COUNT_FILE: countFile },
      },
    });
    await eventually(
      async () => (await toolId("counting__crash").catch(() => undefined)) ?? undefined,
      "the catalog",
    );
    agent = await createTestAgent(handle.db, {
      tenantId: tenantId(),
      name: "crashy-agent",
      patterns: ["counting__*"],
    });
    // Let the agent's calls run without approval: classified, approval never.
    for (const name of ["counting__crash", "counting__record"]) {
      const { status } = await patchTool(name, { effect: "read", approvalRule: "never" });
      expect(status).toBe(200);
    }
    listener = await listenGateway();
  }, 120_000);
  afterAll(async () => {
    await listener?.close();
    await runtime?.stop();
    setServerRuntime(undefined);
    await handle?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("names the call that crashed the server in its diagnostics: tool, principal, time", async () => {
    await untilReady();
    const { status, body } = await call("counting__crash");
    expect(status).toBe(200);
    expect(body.call.status).toBe("failed");
    expect(body.call.error?.message ?? body.call.errorMessage).toMatch(/exited with code 3/);
    const crashed = await eventually(async () => {
      const { body: diagnostics } = await sendTo(diagnosticsRoute, "/x", {
        headers: bearer(adminKey),
        params: { name: "counting" },
      });
      return diagnostics.crashedDuringCalls?.length > 0 ? diagnostics.crashedDuringCalls : undefined;
    }, "the crash attribution");
    expect(crashed).toEqual([
      expect.objectContaining({
        callId: body.call.id,
        tool: "crash",
        requester: { kind: "principal", id: agent.id, name: "crashy-agent" },
        exitCode: 3,
      }),
    ]);
  });

  it("refuses a quarantined tool by REST and the gateway; its server never receives the call", async () => {
    await sendTo(reconnectRoute, "/x", {
      method: "POST",
      headers: bearer(adminKey),
      params: { name: "counting" },
    });
    await untilReady();
    const set = await patchTool("counting__record", { quarantined: true, quarantineReason: "crashed twice" });
    expect(set.status).toBe(200);
    expect(set.body.tool.quarantine).toMatchObject({ reason: "crashed twice" });

    const refused = await call("counting__record", { key: "quarantined" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("policy_denied");
    expect(refused.body.error.message).toMatch(
      /counting__record is quarantined.*crashed twice.*clear the quarantine/,
    );

    const viaGateway = await fetch(`${listener.base}/mcp`, {
      method: "POST",
      headers: {
        ...bearer(agent.key),
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "counting__record", arguments: { key: "quarantined" } },
      }),
    });
    const answer = JSON.stringify(await viaGateway.json());
    expect(answer).toMatch(/quarantined/);

    // Sentinel: a call of another key after clearing runs, and is the only line in the file.
    const cleared = await patchTool("counting__record", { quarantined: false });
    expect(cleared.status).toBe(200);
    expect(cleared.body.tool.quarantine).toBeNull();
    const ran = await call("counting__record", { key: "after-review" });
    expect(ran.body.call.status).toBe("succeeded");
    expect(countLines(countFile, "after-review")).toBe(1);
    expect(countLines(countFile, "quarantined")).toBe(0);

    const audit = await sendTo(auditRoute, "/api/v1/audit", { headers: bearer(adminKey) });
    const actions = (audit.body.entries ?? audit.body.events ?? []).map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["tool.quarantined", "tool.quarantine_cleared"]));
  });
});
