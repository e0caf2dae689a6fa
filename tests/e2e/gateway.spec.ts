import { execFile } from "node:child_process";
import { request as httpRequest } from "node:http";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import type { APIRequestContext } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { expect, test } from "./fixtures";

/**
 * The gateway as agents meet it, against a real `next start`: an SDK client over streamable HTTP
 * and the MCP Inspector CLI reach the demo servers through /mcp as a principal set up through
 * REST — only granted tools listed, annotations from the enforced effect, approvals held open
 * with progress notices and decided through REST, denials with their reason.
 */

const ECHO = "local-tools__echo";
const WORD_COUNT = "local-tools__word_count";
const run = promisify(execFile);
const DISCOVERY_TOOLS = [
  "switchboard__search_tools",
  "switchboard__describe_tool",
  "switchboard__call_tool",
  "switchboard__list_servers",
];

type Tool = { id: string; gatewayName: string; effect: string | null };
type ToolsBody = { tools: Tool[] };

async function findTool(api: APIRequestContext, gatewayName: string): Promise<Tool> {
  let found: Tool | undefined;
  await expect
    .poll(
      async () => {
        const body = (await (await api.get(`/api/v1/tools?q=${gatewayName}`)).json()) as ToolsBody;
        found = body.tools.find((tool) => tool.gatewayName === gatewayName);
        return found;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return found as Tool;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** The call id from the first "waiting for approval — call <id>" notice. */
async function waitingCallId(progress: Progress[]): Promise<string> {
  await expect
    .poll(() => progress[0]?.message ?? "", { timeout: 20_000 })
    .toMatch(/^waiting for approval — call /);
  return /call (\S+)$/.exec(progress[0]?.message ?? "")?.[1] ?? "";
}

test.describe.configure({ mode: "serial" });

test.describe("the MCP gateway at /mcp", () => {
  let key = "";
  let client: Client;
  let gatewayUrl: URL;
  /** The demo tools' effects before this file changed them: put back afterwards, as they were. */
  const originalEffects = new Map<string, string | null>();

  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    const suffix = Math.random().toString(36).slice(2, 8);
    const created = await api.post("/api/v1/principals", { data: { name: `gateway-e2e-${suffix}` } });
    expect(created.status()).toBe(201);
    const { principal } = (await created.json()) as { principal: { id: string } };
    const keyResponse = await api.post(`/api/v1/principals/${principal.id}/keys`, { data: { name: "e2e" } });
    key = ((await keyResponse.json()) as { key: string }).key;
    const grants = await api.put(`/api/v1/principals/${principal.id}/grants`, {
      data: { patterns: [ECHO, WORD_COUNT] },
    });
    expect(grants.ok()).toBe(true);
    // echo is classified read (runs at once); word_count stays unclassified (external-write: approval).
    for (const [name, effect] of [
      [ECHO, "read"],
      [WORD_COUNT, null],
    ] as const) {
      const tool = await findTool(api, name);
      if (!originalEffects.has(tool.id)) originalEffects.set(tool.id, tool.effect);
      expect((await api.patch(`/api/v1/tools/${tool.id}`, { data: { effect } })).ok()).toBe(true);
    }
    await api.dispose();

    gatewayUrl = new URL("/mcp", baseURL);
    client = new Client({ name: "gateway-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(gatewayUrl, {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    await client?.close();
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    for (const [id, effect] of originalEffects) await api.patch(`/api/v1/tools/${id}`, { data: { effect } });
    await api.dispose();
  });

  test("refuses anonymous requests (401 + WWW-Authenticate) and foreign Host headers", async ({
    request,
  }) => {
    const anonymous = await request.post("/mcp", {
      headers: { Accept: "application/json, text/event-stream" },
      data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(anonymous.status()).toBe(401);
    expect(anonymous.headers()["www-authenticate"]).toMatch(/^Bearer/);
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own Host.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        gatewayUrl,
        {
          method: "POST",
          headers: {
            Host: "evil.example",
            Authorization: `Bearer ${key}`,
            "Content-Type": "application/json",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    });
    expect(status).toBe(403);
  });

  test("lists only granted tools, with annotations from the enforced effect and Switchboard's own tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "switchboard__get_call",
      "switchboard__wait_call",
      ECHO,
      WORD_COUNT,
      ...DISCOVERY_TOOLS,
    ]);
    expect(tools.find((t) => t.name === ECHO)?.annotations).toEqual({ readOnlyHint: true });
    // The demo server calls word_count read-only; unclassified, it is enforced as external-write
    // and advertised as destructive (MCP's default for a tool nobody reviewed).
    expect(tools.find((t) => t.name === WORD_COUNT)?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(tools.find((t) => t.name === WORD_COUNT)?.outputSchema).toMatchObject({
      type: "object",
      properties: { words: expect.any(Object) },
    });
  });

  test("runs a granted read tool at once and refuses an ungranted one", async () => {
    const echoed = await client.callTool({ name: ECHO, arguments: { text: "through the gateway" } });
    expect(echoed.isError).toBeFalsy();
    expect(text(echoed)).toBe("through the gateway");
    const refused = await client.callTool({ name: "local-tools__current_time", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("has no grant for local-tools__current_time");
  });

  test("holds an approval-gated call open with progress notices until it is approved through REST", async ({
    api,
  }) => {
    const progress: Progress[] = [];
    const pending = client.callTool({ name: WORD_COUNT, arguments: { text: "one two three" } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 60_000,
    });
    const callId = await waitingCallId(progress);
    // A second notice within the 10 s clients allow before they give up on a silent request.
    await expect.poll(() => progress.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(progress[1]?.message).toBe(`waiting for approval — call ${callId}`);
    const approved = await api.post(`/api/v1/approvals/${callId}/approve`, { data: {} });
    expect(approved.ok()).toBe(true);
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ words: 3, characters: 13, lines: 1 });
  });

  test("returns a denial with the reason the approver gave", async ({ api }) => {
    const progress: Progress[] = [];
    const pending = client.callTool({ name: WORD_COUNT, arguments: { text: "deny me" } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    const callId = await waitingCallId(progress);
    const denied = await api.post(`/api/v1/approvals/${callId}/deny`, { data: { reason: "not on Fridays" } });
    expect(denied.ok()).toBe(true);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("not on Fridays");
  });

  test("the MCP Inspector CLI lists and calls tools through /mcp", async () => {
    const inspector = (...args: string[]) => inspectorCli(gatewayUrl, key, ...args);
    const listed = JSON.parse((await inspector("--method", "tools/list")).stdout) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((t) => t.name)).toContain(ECHO);
    const called = JSON.parse(
      (await inspector("--method", "tools/call", "--tool-name", ECHO, "--tool-arg", "text=inspected")).stdout,
    ) as CallToolResult;
    expect(text(called)).toBe("inspected");
  });
});

/** The MCP Inspector's CLI against a gateway endpoint, as a principal. */
const inspectorCli = (url: URL, key: string, ...args: string[]) =>
  run(
    "node",
    [
      "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
      "--cli",
      url.href,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${key}`,
      ...args,
    ],
    { timeout: 60_000 },
  );

test.describe("the MCP gateway in discovery mode at /mcp/discover", () => {
  let key = "";
  let client: Client;
  let discoverUrl: URL;
  let echoEffect: string | null = null;
  let echoId = "";

  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    const suffix = Math.random().toString(36).slice(2, 8);
    const created = await api.post("/api/v1/principals", { data: { name: `discover-e2e-${suffix}` } });
    const { principal } = (await created.json()) as { principal: { id: string } };
    key = (
      (await (
        await api.post(`/api/v1/principals/${principal.id}/keys`, { data: { name: "e2e" } })
      ).json()) as {
        key: string;
      }
    ).key;
    expect(
      (
        await api.put(`/api/v1/principals/${principal.id}/grants`, { data: { patterns: ["local-tools__*"] } })
      ).ok(),
    ).toBe(true);
    const echo = await findTool(api, ECHO);
    echoId = echo.id;
    echoEffect = echo.effect;
    expect((await api.patch(`/api/v1/tools/${echo.id}`, { data: { effect: "read" } })).ok()).toBe(true);
    await api.dispose();

    discoverUrl = new URL("/mcp/discover", baseURL);
    client = new Client({ name: "discover-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(discoverUrl, {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    await client?.close();
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    await api.patch(`/api/v1/tools/${echoId}`, { data: { effect: echoEffect } });
    await api.dispose();
  });

  test("an SDK client finds, describes and runs a tool through the discovery tools alone", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      ...DISCOVERY_TOOLS,
      "switchboard__get_call",
      "switchboard__wait_call",
    ]);
    expect(client.getInstructions()).toContain("switchboard__search_tools");

    const found = JSON.parse(
      text(
        await client.callTool({ name: "switchboard__search_tools", arguments: { query: "echo text back" } }),
      ),
    ) as { tools: { name: string; server: string; effect: string }[] };
    expect(found.tools[0]).toMatchObject({ name: ECHO, server: "local-tools", effect: "read" });

    const described = JSON.parse(
      text(await client.callTool({ name: "switchboard__describe_tool", arguments: { name: ECHO } })),
    ) as { tool: { name: string; inputSchema: { required?: string[] } } };
    expect(described.tool.name).toBe(ECHO);
    expect(described.tool.inputSchema.required).toEqual(["text"]);

    const ran = await client.callTool({
      name: "switchboard__call_tool",
      arguments: { name: ECHO, arguments: { text: "found by discovery" } },
    });
    expect(ran.isError).toBeFalsy();
    expect(text(ran)).toBe("found by discovery");

    const refused = await client.callTool({
      name: "switchboard__call_tool",
      arguments: { name: ECHO, arguments: {} },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("text is required");
  });

  test("the MCP Inspector CLI lists the discovery tools and runs a tool through switchboard__call_tool", async () => {
    const inspector = (...args: string[]) => inspectorCli(discoverUrl, key, ...args);
    const listed = JSON.parse((await inspector("--method", "tools/list")).stdout) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(DISCOVERY_TOOLS));
    expect(listed.tools.map((t) => t.name)).not.toContain(ECHO);
    const called = JSON.parse(
      (
        await inspector(
          "--method",
          "tools/call",
          "--tool-name",
          "switchboard__call_tool",
          "--tool-args-json",
          JSON.stringify({ name: ECHO, arguments: { text: "inspected by discovery" } }),
        )
      ).stdout,
    ) as CallToolResult;
    expect(text(called)).toBe("inspected by discovery");
  });
});
