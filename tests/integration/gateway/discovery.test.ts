import { randomBytes } from "node:crypto";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as approveRoute } from "@/app/api/v1/approvals/[id]/approve/route";
import { GET as gatewaySettingsRoute } from "@/app/api/v1/settings/gateway/route";
import { calls, mcpServers, serverStatus } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { updateTool } from "@/lib/catalog/governed-tools";
import { saveCatalog } from "@/lib/catalog/save-catalog";
import { decisionCache } from "@/lib/policy/decision-cache";
import { registerServer } from "@/lib/servers/registry";
import { type CallsWorld, openCallsWorld } from "../../fixtures/calls-world";
import { createTestAgent, createTestApiKey } from "../../fixtures/databases";
import { type GatewayListener, listenGateway } from "../../fixtures/gateway-listener";
import { sendTo } from "../../fixtures/route-request";
import { toolCorpus } from "../../fixtures/tool-corpus";

/*
 * Discovery mode against a workspace of 1,000+ tools on 48 servers: the gateway's front door on a
 * real listener, real stdio servers for the calls, raw JSON-RPC so that what is compared is what a
 * client receives. One database driver: what is tested here is above the database (the governed
 * path under it is tested on both in gateway.test.ts).
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

/** Queries as a person would type them, and the tool they mean: it must rank in the top 3. */
const searches: Array<[query: string, intended: string]> = [
  ["open a gh issue", "github__create_issue"],
  ["create github issue", "github__create_issue"],
  ["merge pull request", "github__merge_pull_request"],
  ["pr merge", "github__merge_pull_request"],
  ["create a repo", "github__create_repository"],
  ["gl merge request", "gitlab__create_merge_request"],
  ["send a slack message", "slack__send_message"],
  ["slack mesage", "slack__send_message"],
  ["post message to channel", "slack__send_message"],
  ["move jira ticket to done", "jira__transition_issue"],
  ["add a comment to the jira ticket", "jira__add_comment"],
  ["issues assigned to me in linear", "linear__list_issues"],
  ["read a file", "filesystem__read_file"],
  ["rename a file", "filesystem__move_file"],
  ["run sql query on the database", "postgres__query"],
  ["weather forecast", "weather__get_forecast"],
  ["kubernetes pod logs", "kubernetes__get_pod_logs"],
  ["k8s logs", "kubernetes__get_pod_logs"],
  ["restart deployment", "kubernetes__restart_deployment"],
  ["schedule a meeting", "google-calendar__create_event"],
  ["search the web", "brave-search__web_search"],
  ["take a screenshot of a webpage", "puppeteer__screenshot"],
  ["text message sms", "twilio__send_sms"],
  ["upload to s3", "aws-s3__put_object"],
  ["send email", "gmail__send_email"],
  ["fetch url content", "fetch__fetch"],
  ["create invoice", "billing__create_invoice"],
  ["cancel subscription", "billing__delete_subscription"],
  ["book a meeting room", "facilities__create_room_booking"],
  ["new hire employee record", "hr__create_employee"],
  ["echo text back", "local-tools__echo"],
];

/** One server left out of the grants: its tools exist, but not for this principal. */
const UNGRANTED_SERVER = "stripe";

type RpcAnswer = { result?: { tools?: Tool[] } & CallToolResult; error?: { message: string } };

describe("gateway discovery mode (/mcp/discover, 1,000+ tools)", () => {
  let world: CallsWorld;
  let listener: GatewayListener;
  let key: string;
  let principalId: string;

  /** A JSON-RPC request as a client sends it, answered as JSON: the body as received. */
  const rpc = async (
    path: string,
    method: string,
    params?: unknown,
  ): Promise<{ raw: string; answer: RpcAnswer }> => {
    const response = await fetch(new URL(path, listener.base), {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    expect(response.status).toBe(200);
    const raw = await response.text();
    // A request the front door passes on is answered as one SSE event.
    const body = raw.startsWith("{") ? raw : (/^data: (.*)$/m.exec(raw)?.[1] ?? "");
    return { raw: body, answer: JSON.parse(body) as RpcAnswer };
  };
  const call = async (name: string, args: Record<string, unknown>) => {
    const { answer } = await rpc("/mcp/discover", "tools/call", { name, arguments: args });
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
    const result = answer.result as CallToolResult;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    return { isError: result.isError === true, text, json: () => JSON.parse(text) };
  };
  const search = async (args: Record<string, unknown>) => {
    const answer = await call("switchboard__search_tools", args);
    expect(answer.isError, answer.text).toBe(false);
    return answer.json() as {
      tools: Array<{ name: string; server: string; effect: string; description: string }>;
    };
  };
  const callsOfPrincipal = async () =>
    (
      await world.handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(calls)
        .where(and(eq(calls.tenantId, world.tenantId), eq(calls.requesterId, principalId)))
    )[0]?.n ?? 0;

  beforeAll(async () => {
    world = await openCallsWorld("pglite");
    listener = await listenGateway();
    const { db } = world.handle;
    const tenantId = world.tenantId;
    // The corpus's servers are registered disabled (nothing to start: they are catalogs only), their
    // catalogs stored as a connection would, then marked enabled and ready in the database without
    // an event, so that the runtime leaves them be: the gateway lists the tools of enabled servers.
    for (const server of toolCorpus) {
      const registered = await registerServer(db, {
        authority: SYSTEM_AUTHORITY,
        tenantId,
        input: {
          name: server.name,
          transport: "stdio",
          command: "node",
          args: ["catalog-only.js"],
          enabled: false,
        },
      });
      await saveCatalog(db, {
        tenantId,
        serverId: registered.id,
        catalog: {
          tools: server.tools.map((tool) => ({
            ...tool,
            inputSchema: {
              type: "object",
              properties: { id: { type: "string", description: "what to act on" } },
              additionalProperties: false,
            },
            ...(tool.name === "create_issue"
              ? { outputSchema: { type: "object", properties: { number: { type: "integer" } } } }
              : {}),
          })),
          resources: [],
          resourceTemplates: [],
          prompts: [],
        } as never,
      });
    }
    const corpusServers = await db
      .update(mcpServers)
      .set({ enabled: true })
      .where(
        and(
          eq(mcpServers.tenantId, tenantId),
          inArray(
            mcpServers.name,
            toolCorpus.map((s) => s.name),
          ),
        ),
      )
      .returning({ id: mcpServers.id });
    await db
      .update(serverStatus)
      .set({ state: "ready" })
      .where(
        inArray(
          serverStatus.serverId,
          corpusServers.map((s) => s.id),
        ),
      );
    decisionCache.invalidate(tenantId);
    await updateTool(db, {
      tenantId,
      id: await world.toolId("local-tools__echo"),
      input: { effect: "read" },
    });

    const granted = toolCorpus.filter((s) => s.name !== UNGRANTED_SERVER).map((s) => `${s.name}__*`);
    const agent = await createTestAgent(db, {
      tenantId,
      name: "finder",
      patterns: [...granted, "local-tools__*", "fixture__record"],
    });
    key = agent.key;
    principalId = agent.id;
  }, 120_000);
  afterAll(async () => {
    await listener?.close();
    await world?.close();
  });

  it("lists only the discovery tools and the call collectors on /mcp/discover, and the same last on /mcp", async () => {
    const discover = (await rpc("/mcp/discover", "tools/list")).answer.result?.tools ?? [];
    expect(discover.map((t) => t.name)).toEqual([
      "switchboard__search_tools",
      "switchboard__describe_tool",
      "switchboard__call_tool",
      "switchboard__list_servers",
      "switchboard__get_call",
      "switchboard__wait_call",
    ]);
    const full = (await rpc("/mcp", "tools/list")).answer.result?.tools ?? [];
    const total = toolCorpus.reduce((n, s) => n + (s.name === UNGRANTED_SERVER ? 0 : s.tools.length), 0);
    // The corpus's granted tools, local-tools' four, fixture__record; the six of Switchboard.
    expect(total + 5).toBeGreaterThanOrEqual(1000);
    expect(full).toHaveLength(total + 5 + 6);
    expect(full.slice(-4).map((t) => t.name)).toEqual(discover.slice(0, 4).map((t) => t.name));
    expect(full.some((t) => t.name.startsWith(`${UNGRANTED_SERVER}__`))).toBe(false);
    // The point of the mode: a list a model can hold.
    expect(JSON.stringify(discover).length).toBeLessThan(JSON.stringify(full).length / 50);
  });

  it("measures both modes' tools/list for Settings → Gateway, from the lists the gateway serves", async () => {
    const listed = (await rpc("/mcp", "tools/list")).raw;
    const discovered = (await rpc("/mcp/discover", "tools/list")).raw;
    const toolsJson = (raw: string) =>
      JSON.stringify((JSON.parse(raw) as { result: { tools: unknown } }).result.tools);
    const admin = await createTestApiKey(world.handle, ["admin"]);
    const { status, body } = await sendTo(gatewaySettingsRoute, "/api/v1/settings/gateway", {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(status).toBe(200);
    expect(body.toolLists.discoverBytes).toBe(Buffer.byteLength(toolsJson(discovered)));
    const finder = body.toolLists.principals.find((p: { name: string }) => p.name === "finder");
    expect(finder.tools).toBeGreaterThanOrEqual(1000);
    expect(finder.fullBytes).toBe(Buffer.byteLength(toolsJson(listed)));
  });

  it.each(searches)("finds the intended tool in the top 3 for %j", async (query, intended) => {
    const { tools } = await search({ query });
    expect(
      tools.slice(0, 3).map((t) => t.name),
      `top 5: ${tools
        .slice(0, 5)
        .map((t) => t.name)
        .join(", ")}`,
    ).toContain(intended);
  });

  it("answers a search with what a model needs to choose, filters by server and effect, and honours the limit", async () => {
    const { tools } = await search({ query: "gh issue", limit: 5 });
    expect(tools).toHaveLength(5);
    expect(tools.every((t) => t.server === "github" && /issue/.test(t.name))).toBe(true);
    expect(tools.map((t) => t.name)).toContain("github__create_issue");
    expect(tools.find((t) => t.name === "github__create_issue")).toEqual({
      name: "github__create_issue",
      description: "Open a new issue in a GitHub repository, with a title, body, labels and assignees.",
      server: "github",
      effect: "unclassified",
    });

    const onGitlab = await search({ query: "create issue", server: "gitlab" });
    expect(onGitlab.tools.slice(0, 2).map((t) => t.name)).toEqual([
      "gitlab__create_issue",
      "gitlab__list_issues",
    ]);
    expect(onGitlab.tools.every((t) => t.server === "gitlab")).toBe(true);
    const readOnly = await search({ query: "echo", effect: "read" });
    expect(readOnly.tools.map((t) => t.name)).toEqual(["local-tools__echo"]);
    expect((await search({ query: "list", limit: 50 })).tools).toHaveLength(50);
    expect((await search({ query: "list" })).tools).toHaveLength(20);

    const nothing = await search({ query: "zzqx frobnicate" });
    expect(nothing.tools).toEqual([]);
    expect(JSON.stringify(nothing)).toContain("switchboard__list_servers");
  });

  it("describes a tool exactly as /mcp lists it", async () => {
    const listed = (await rpc("/mcp", "tools/list")).raw;
    for (const name of ["github__create_issue", "local-tools__echo", "fixture__record"]) {
      const described = await call("switchboard__describe_tool", { name });
      expect(described.isError, described.text).toBe(false);
      const { server, effect, tool } = described.json();
      const entry = (JSON.parse(listed) as { result: { tools: Tool[] } }).result.tools.find(
        (t) => t.name === name,
      );
      // Byte for byte: the same JSON text, key order and all.
      expect(JSON.stringify(tool)).toBe(JSON.stringify(entry));
      expect(listed).toContain(JSON.stringify(tool));
      expect(server).toBe(name.split("__")[0]);
      expect(effect).toBe(name === "local-tools__echo" ? "read" : "unclassified");
    }
  });

  it("lists the servers the principal can reach, with their state and tool counts", async () => {
    const { servers: reachable } = (await call("switchboard__list_servers", {})).json() as {
      servers: Array<{ name: string; status: string; tools: number }>;
    };
    expect(reachable.map((s) => s.name)).not.toContain(UNGRANTED_SERVER);
    expect(reachable).toContainEqual({ name: "local-tools", status: "ready", tools: 4 });
    expect(reachable).toContainEqual({ name: "fixture", status: "ready", tools: 1 });
    expect(reachable.find((s) => s.name === "github")?.tools).toBe(18);
    expect(reachable).toHaveLength(toolCorpus.length - 1 + 2);
  });

  it("runs a read tool at once through the governed path, recorded like any call", async () => {
    const before = await callsOfPrincipal();
    const answer = await call("switchboard__call_tool", {
      name: "local-tools__echo",
      arguments: { text: "found, described, run" },
    });
    expect(answer).toMatchObject({ isError: false, text: "found, described, run" });
    expect(await callsOfPrincipal()).toBe(before + 1);
  });

  it("answers a call that waits for approval with its id; wait_call collects it after an approval through REST", async () => {
    const token = `t-${randomBytes(4).toString("hex")}`;
    const pending = await call("switchboard__call_tool", {
      name: "fixture__record",
      arguments: { token },
      waitSeconds: 0,
    });
    expect(pending.isError, pending.text).toBe(false);
    const { callId, status, next } = pending.json();
    expect(status).toBe("pending_approval");
    expect(next).toContain("switchboard__wait_call");
    expect(world.recorded()).not.toContain(token);

    const waiting = call("switchboard__wait_call", { callId, timeoutSeconds: 30 });
    const approved = await sendTo(approveRoute, `/api/v1/approvals/${callId}/approve`, {
      method: "POST",
      headers: { cookie: world.approvers[0]?.cookie ?? "" },
      body: {},
      params: { id: callId },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await waiting).text).toBe(`recorded ${token}`);
    expect(world.recorded().filter((t) => t === token)).toHaveLength(1);
  });

  it("never finds, describes or runs a tool granted to nobody here", async () => {
    const before = await callsOfPrincipal();
    const { tools } = await search({ query: "refund a payment stripe", limit: 50 });
    expect(tools.some((t) => t.server === UNGRANTED_SERVER)).toBe(false);
    const onServer = await call("switchboard__search_tools", { query: "refund", server: UNGRANTED_SERVER });
    expect(onServer).toMatchObject({ isError: true });
    expect(onServer.text).toContain("switchboard__list_servers");
    for (const [tool, args] of [
      ["switchboard__describe_tool", { name: "stripe__create_refund" }],
      ["switchboard__call_tool", { name: "stripe__create_refund", arguments: { id: "ch_1" } }],
    ] as const) {
      const answer = await call(tool, args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toBe(
        'No tool named "stripe__create_refund" is available to you. Find tools by what they do with switchboard__search_tools.',
      );
    }
    expect(await callsOfPrincipal()).toBe(before);
  });

  it.each([
    ["an empty query", "switchboard__search_tools", { query: "  " }, /query is empty/],
    [
      "a 10 KB query",
      "switchboard__search_tools",
      { query: "x".repeat(10_240) },
      /longer than 500 characters/,
    ],
    ["no query", "switchboard__search_tools", {}, /query \(text\) is required/],
    [
      "a limit of 0",
      "switchboard__search_tools",
      { query: "issue", limit: 0 },
      /limit is a whole number from 1 to 50/,
    ],
    ["a limit of 51", "switchboard__search_tools", { query: "issue", limit: 51 }, /limit is at most 50/],
    ["a fractional limit", "switchboard__search_tools", { query: "issue", limit: 2.5 }, /whole number/],
    [
      "an unknown effect",
      "switchboard__search_tools",
      { query: "issue", effect: "evil" },
      /effect is one of read/,
    ],
    [
      "an unknown argument",
      "switchboard__search_tools",
      { query: "issue", sort: "name" },
      /sort is not an argument/,
    ],
    ["an unknown tool", "switchboard__describe_tool", { name: "github__launch_rocket" }, /No tool named/],
    [
      "arguments that fail the schema",
      "switchboard__call_tool",
      { name: "local-tools__echo", arguments: { text: 42 } },
      /do not fit local-tools__echo's input schema, so it was not run: text must be text/,
    ],
    [
      "missing required arguments",
      "switchboard__call_tool",
      { name: "local-tools__echo", arguments: {} },
      /text is required/,
    ],
    [
      "arguments that are not an object",
      "switchboard__call_tool",
      { name: "local-tools__echo", arguments: "hello" },
      /arguments must be a JSON object/,
    ],
    [
      "a wait out of range",
      "switchboard__call_tool",
      { name: "local-tools__echo", waitSeconds: 999 },
      /at most 120/,
    ],
  ])(
    "answers %s with a tool error that says what to do, and runs nothing",
    async (_, tool, args, message) => {
      const before = await callsOfPrincipal();
      const answer = await call(tool, args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(message);
      expect(await callsOfPrincipal()).toBe(before);
    },
  );
});
