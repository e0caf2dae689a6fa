import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putNameBudget } from "@/app/api/v1/settings/gateway/name-budget/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/v1/settings/gateway/route";
import { allowRules, auditEvents, grants, tenantPolicies, tools } from "@/db/schema";
import { createAllowRule } from "@/lib/approvals/allow-rules";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { applyGatewayNamesEverywhere } from "@/lib/catalog/apply-gateway-names";
import { listGovernedTools } from "@/lib/catalog/governed-tools";
import { toGatewayName } from "@/lib/catalog/naming";
import { getGatewaySettings } from "@/lib/gateway/settings/loopback-mapping";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { ServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { registerServer } from "@/lib/servers/registry";
import {
  createTestAgent,
  createTestApiKey,
  drivers,
  openProcessTestDatabase,
} from "../../fixtures/databases";
import { eventually } from "../../fixtures/eventually";
import { type GatewayListener, listenGateway } from "../../fixtures/gateway-listener";
import { fixture, tsxArgs } from "../../fixtures/mcp-servers/pool-harness";

/*
 * Gateway names every client accepts (issue #23): within the workspace's budget (default 46, so
 * Claude Code's `mcp__switchboard__` + name ≤ 64) and inside [A-Za-z0-9_-]. A real stdio server with
 * awkward tool names, a real gateway client over HTTP, PGlite and PostgreSQL.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const SERVER = "names";
const LONG = "search_issues_and_pull_requests_everywhere";
/** 49 characters: plain under a budget of 64, shortened under the default 46. */
const LONG_PLAIN = `${SERVER}__${LONG}`;
const LONG_SHORT = toGatewayName(SERVER, LONG, 46);

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe.each(drivers)("gateway names (%s)", (driver) => {
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;
  let listener: GatewayListener;
  let tenantId: string;
  let adminKey: string;
  let exact: { id: string; key: string };
  let wildcard: { id: string; key: string };

  const storedNames = async () =>
    (
      await handle.db
        .select({ name: tools.name, gatewayName: tools.gatewayName })
        .from(tools)
        .where(and(eq(tools.tenantId, tenantId), isNull(tools.removedAt)))
    ).reduce((map, row) => map.set(row.name, row.gatewayName), new Map<string, string>());
  const patternsOf = async (principalId: string) =>
    (
      await handle.db
        .select({ pattern: grants.toolPattern })
        .from(grants)
        .where(eq(grants.principalId, principalId))
    )
      .map((row) => row.pattern)
      .sort();
  const putBudget = (body: unknown) =>
    putNameBudget(
      new Request("http://127.0.0.1:3000/api/v1/settings/gateway/name-budget", {
        method: "PUT",
        headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
    );
  const connectAs = async (key: string, path = "/mcp"): Promise<Client> => {
    const client = new Client({ name: "names-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(path, listener.base), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    return client;
  };
  const listAs = async (key: string): Promise<{ client: Client; tools: Tool[] }> => {
    const client = await connectAs(key);
    return { client, tools: (await client.listTools()).tools };
  };

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    tenantId = handle.defaultTenant.id;
    runtime = new ServerRuntime(handle.db);
    await runtime.start();
    setServerRuntime(runtime);
    listener = await listenGateway();
    adminKey = await createTestApiKey(handle, ["admin"]);
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      input: {
        name: SERVER,
        transport: "stdio",
        command: "node",
        args: tsxArgs(fixture("naming-fixture.ts")),
      },
    });
    await eventually(async () => ((await storedNames()).size === 5 ? true : undefined), "the catalog");
  });
  afterAll(async () => {
    await listener?.close();
    await runtime?.stop();
    setServerRuntime(undefined);
    await handle?.close();
  });

  it("names tools at discovery with the default budget: dots → _, long names shortened, all ≤ 46", async () => {
    const names = await storedNames();
    expect(names.get("read.file")).toBe("names__read_file");
    expect(names.get("lookup.user")).toBe("names__lookup_user");
    expect(names.get(LONG)).toBe(LONG_SHORT);
    expect(LONG_SHORT).toMatch(/^names__search_issues_and_pull_req\w*_[0-9a-f]{8}$/);
    for (const name of names.values()) {
      expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(`mcp__switchboard__${name}`.length).toBeLessThanOrEqual(64);
    }
    expect((await getGatewaySettings(handle.db, { tenantId })).gatewayNameBudget).toBe(46);
  });

  it("reports get.weather and get_weather as a collision and offers neither", async () => {
    const governed = await listGovernedTools(handle.db, { tenantId });
    const dotted = governed.find((t) => t.name === "get.weather");
    const plain = governed.find((t) => t.name === "get_weather");
    expect(dotted?.gatewayName).toBe("names__get_weather");
    expect(dotted?.conflictsWith).toEqual([{ serverName: SERVER, toolName: "get_weather" }]);
    expect(plain?.conflictsWith).toEqual([{ serverName: SERVER, toolName: "get.weather" }]);
  });

  it("refuses a budget outside 32–64 with a 400 that says the range, and changes nothing", async () => {
    for (const bad of [31, 65, 46.5, "50", null]) {
      const response = await putBudget({ gatewayNameBudget: bad });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as {
        error: { message: string; fieldErrors: Record<string, string[]> };
      };
      expect(error.fieldErrors.gatewayNameBudget?.[0]).toMatch(/whole number from 32 to 64/);
    }
    expect((await putBudget({ gatewayNameBudget: 50, extra: 1 })).status).toBe(400);
    expect((await storedNames()).get(LONG)).toBe(LONG_SHORT);
  });

  it("renames on a budget change: an exact grant and an allow rule follow, a wildcard grant stays", async () => {
    exact = await createTestAgent(handle.db, {
      tenantId,
      name: `exact-${driver}`,
      patterns: [LONG_SHORT, "names__read_file", "names__lookup_user"],
    });
    wildcard = await createTestAgent(handle.db, {
      tenantId,
      name: `wildcard-${driver}`,
      patterns: ["names__*"],
    });
    const rule = await createAllowRule(handle.db, {
      tenantId,
      input: { principalId: exact.id, tool: LONG_SHORT, durationMinutes: 60 },
      by: null,
    });

    // On the per-server endpoint a tool goes by its own name, whatever its gateway name is: called
    // once before the rename (so the name it stands for is looked up and kept), once after.
    const perServer = await connectAs(exact.key, `/mcp/servers/${SERVER}`);
    const callOwnName = async (word: string) =>
      text(await perServer.callTool({ name: LONG, arguments: { text: word } }));
    expect(await callOwnName("before")).toBe(`${LONG}: before`);

    // A client connected before the change hears that its tool list changed.
    const { client: listening, tools: before } = await listAs(wildcard.key);
    let changes = 0;
    listening.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    expect(before.map((t) => t.name)).toContain(LONG_SHORT);

    const response = await putBudget({ gatewayNameBudget: 64 });
    expect(response.status).toBe(200);
    try {
      await eventually(async () => (changes > 0 ? true : undefined), "notifications/tools/list_changed");
      const after = (await listening.listTools()).tools.map((t) => t.name);
      expect(after).toContain(LONG_PLAIN);
      expect(after).not.toContain(LONG_SHORT);
      expect(await callOwnName("after")).toBe(`${LONG}: after`);
    } finally {
      await listening.close();
      await perServer.close();
    }
    expect(
      ((await response.json()) as { settings: { gatewayNameBudget: number } }).settings.gatewayNameBudget,
    ).toBe(64);

    expect((await storedNames()).get(LONG)).toBe(LONG_PLAIN);
    expect(await patternsOf(exact.id)).toEqual([LONG_PLAIN, "names__lookup_user", "names__read_file"].sort());
    expect(await patternsOf(wildcard.id)).toEqual(["names__*"]);
    const [moved] = await handle.db.select().from(allowRules).where(eq(allowRules.id, rule.id));
    expect(moved?.gatewayName).toBe(LONG_PLAIN);
    const [audit] = await handle.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, "gateway.name_budget_changed")));
    expect(audit?.detail).toBe("46 → 64 characters; 1 tool renamed");
  });

  it("keeps the budget when the loopback mapping beside it is saved, and shows it in the settings", async () => {
    const request = (method: "GET" | "PUT", body?: unknown) =>
      new Request("http://127.0.0.1:3000/api/v1/settings/gateway", {
        method,
        headers: {
          authorization: `Bearer ${adminKey}`,
          "content-type": "application/json",
          host: "localhost:3000",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const saved = await putSettings(request("PUT", { loopbackPrincipalId: null }), {
      params: Promise.resolve({}),
    });
    expect(saved.status).toBe(200);
    const read = await getSettings(request("GET"), { params: Promise.resolve({}) });
    expect(
      ((await read.json()) as { settings: { gatewayNameBudget: number } }).settings.gatewayNameBudget,
    ).toBe(64);
    expect((await storedNames()).get(LONG)).toBe(LONG_PLAIN);
  });

  it("lists the new names to a gateway client, which can call one (its allow rule spares the approval)", async () => {
    const { client, tools: listed } = await listAs(exact.key);
    try {
      const names = listed.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining([LONG_PLAIN, "names__read_file", "names__lookup_user"]));
      expect(names).not.toContain(LONG_SHORT);
      // Unclassified, so external-write, which needs an approval — but for the allow rule, moved along.
      const result = await client.callTool({ name: LONG_PLAIN, arguments: { text: "after the rename" } });
      expect(result.isError).toBeFalsy();
      expect(text(result)).toBe(`${LONG}: after the rename`);
    } finally {
      await client.close();
    }
  });

  it("keeps a renamed tool's own name visible in its title, the downstream title first", async () => {
    const { client, tools: listed } = await listAs(wildcard.key);
    try {
      const byName = new Map(listed.map((t) => [t.name, t]));
      const readFile = byName.get("names__read_file");
      expect(readFile?.title).toBe("read.file");
      expect(readFile?.annotations?.title).toBe("read.file");
      const lookup = byName.get("names__lookup_user");
      expect(lookup?.title).toBe("Look up a user");
      expect(lookup?.annotations?.title).toBe("Look up a user");
      // A plain name needs no reminder: no title is made up for it.
      expect(byName.get(LONG_PLAIN)?.title).toBeUndefined();
      // The collision is offered under neither name.
      expect([...byName.keys()].filter((name) => name.includes("weather"))).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("at start-up, brings names stored by the old rule (dots, over the budget) to the new ones", async () => {
    // As an older Switchboard left them: the dot kept, the long name whole, the grant on the old name.
    await handle.db
      .update(tools)
      .set({ gatewayName: "names__read.file" })
      .where(and(eq(tools.tenantId, tenantId), eq(tools.name, "read.file")));
    await handle.db
      .update(grants)
      .set({ toolPattern: "names__read.file" })
      .where(and(eq(grants.principalId, exact.id), eq(grants.toolPattern, "names__read_file")));
    // …and no budget stored, so the default 46 applies.
    await handle.db
      .delete(tenantPolicies)
      .where(and(eq(tenantPolicies.tenantId, tenantId), eq(tenantPolicies.kind, "gateway")));

    expect(await applyGatewayNamesEverywhere(handle.db)).toBe(2);
    const names = await storedNames();
    expect(names.get("read.file")).toBe("names__read_file");
    expect(names.get(LONG)).toBe(LONG_SHORT);
    expect(await patternsOf(exact.id)).toEqual([LONG_SHORT, "names__lookup_user", "names__read_file"].sort());
    // Idempotent: a second start renames nothing.
    expect(await applyGatewayNamesEverywhere(handle.db)).toBe(0);
  });
});
