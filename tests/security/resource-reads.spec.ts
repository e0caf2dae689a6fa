import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { APIRequestContext } from "@playwright/test";
import { securityOwnerKey } from "../../playwright.config";
import { createAgent } from "../e2e/agents";
import { expect, test } from "./fixtures";

/*
 * A principal granted only one (approval-gated) tool of a server read that server's resources and
 * got its prompts through the gateway, and nothing was recorded. Now a server's resources and
 * prompts need a grant covering the whole server (`<server>__*` or `*`); every read and prompt get
 * is in the call history with its kind; and an admin can make a server's resource reads wait for
 * an approval. Real MCP SDK clients over streamable HTTP against the security server.
 */

const SERVER = "notes";
const PLAN = "notes://plan";
const fixture = path.join(process.cwd(), "tests", "security", "fixtures", "notes-server.mjs");

type CallSummary = {
  id: string;
  kind: string;
  tool: string;
  status: string;
  requester: { id: string; name: string };
  serverName: string | null;
};

test.describe.configure({ mode: "serial" });

let oneTool: { principalId: string; key: string };
let reader: { principalId: string; key: string };

test.beforeAll(async ({ playwright, baseURL }) => {
  const owner = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${securityOwnerKey}` },
  });
  const registered = await owner.post("/api/v1/servers", {
    data: { name: SERVER, transport: "stdio", command: "node", args: [fixture] },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  await expect
    .poll(
      async () => {
        const tools = await owner.get(`/api/v1/servers/${SERVER}/tools`);
        return tools.ok() ? JSON.stringify(await tools.json()).includes("add_note") : false;
      },
      { timeout: 30_000, message: "the notes server's catalog" },
    )
    .toBe(true);
  const suffix = Date.now();
  oneTool = await createAgent(owner, playwright, {
    baseURL,
    name: `one-tool-${suffix}`,
    patterns: [`${SERVER}__add_note`],
  });
  reader = await createAgent(owner, playwright, {
    baseURL,
    name: `reader-${suffix}`,
    patterns: [`${SERVER}__*`],
  });
  await owner.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  const owner = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${securityOwnerKey}` },
  });
  await owner.delete(`/api/v1/servers/${SERVER}`);
  await owner.dispose();
});

async function connect(baseURL: string | undefined, key: string, endpoint: string): Promise<Client> {
  const client = new Client({ name: "resource-reads-security", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint, baseURL), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the request was answered instead of refused").toBeInstanceOf(McpError);
  return error as McpError;
}

async function callsOf(owner: APIRequestContext, principalId: string, kind: string): Promise<CallSummary[]> {
  const response = await owner.get(`/api/v1/calls?kind=${kind}&requester=${principalId}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { calls: CallSummary[] }).calls;
}

test("a principal granted one tool of a server can neither list nor read its resources, nor get its prompts", async ({
  baseURL,
  owner,
}) => {
  const single = await connect(baseURL, oneTool.key, `/mcp/servers/${SERVER}`);
  const all = await connect(baseURL, oneTool.key, "/mcp");
  try {
    // Its one tool is still there.
    expect((await single.listTools()).tools.map((tool) => tool.name)).toContain("add_note");

    for (const attempt of [
      () => single.listResources(),
      () => single.listResourceTemplates(),
      () => single.listPrompts(),
      () => single.readResource({ uri: PLAN }),
      () => single.getPrompt({ name: "summarize" }),
      () => all.readResource({ uri: PLAN }),
      () => all.getPrompt({ name: `${SERVER}__summarize` }),
    ]) {
      const refused = await refusal(attempt());
      expect(refused.message).toContain(`${SERVER}__*`);
    }
    // On /mcp the lists simply leave out what it may not read.
    expect((await all.listResources()).resources.map((resource) => resource.uri)).not.toContain(PLAN);
    expect((await all.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain(
      `${SERVER}__summarize`,
    );
  } finally {
    await single.close();
    await all.close();
  }

  // The refused attempts are on record, by kind, as denied.
  const reads = await callsOf(owner, oneTool.principalId, "resource_read");
  expect(reads.length).toBeGreaterThanOrEqual(2);
  expect(reads.every((call) => call.status === "denied" && call.tool === PLAN)).toBe(true);
  const prompts = await callsOf(owner, oneTool.principalId, "prompt_get");
  expect(prompts.length).toBeGreaterThanOrEqual(2);
  expect(prompts.every((call) => call.status === "denied")).toBe(true);
});

test("with a grant covering the server, reads and prompt gets work and are in the call history", async ({
  baseURL,
  owner,
}) => {
  const client = await connect(baseURL, reader.key, `/mcp/servers/${SERVER}`);
  try {
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([PLAN]);
    const read = await client.readResource({ uri: PLAN });
    expect(read.contents[0]).toMatchObject({ uri: PLAN, text: "plan: acquire the competitor" });
    const prompt = await client.getPrompt({ name: "summarize", arguments: { topic: "q3" } });
    expect(prompt.messages[0]).toMatchObject({ content: { text: "Summarize the notes about q3." } });
  } finally {
    await client.close();
  }

  const [readCall] = await callsOf(owner, reader.principalId, "resource_read");
  expect(readCall).toMatchObject({
    kind: "resource_read",
    tool: PLAN,
    status: "succeeded",
    serverName: SERVER,
    requester: { id: reader.principalId },
  });
  const [promptCall] = await callsOf(owner, reader.principalId, "prompt_get");
  expect(promptCall).toMatchObject({ kind: "prompt_get", status: "succeeded", serverName: SERVER });
  // The filter filters: tool calls are not among the reads.
  expect((await callsOf(owner, reader.principalId, "tool_call")).length).toBe(0);
});

test("with 'resource reads need approval' on, a read waits for an admin's approval and then runs", async ({
  baseURL,
  owner,
}) => {
  const turnedOn = await owner.patch(`/api/v1/servers/${SERVER}`, {
    data: { resourceReadsNeedApproval: true },
  });
  expect(turnedOn.status(), await turnedOn.text()).toBe(200);
  const client = await connect(baseURL, reader.key, "/mcp");
  try {
    let settled = false;
    const read = client.readResource({ uri: PLAN }, { timeout: 120_000 }).finally(() => {
      settled = true;
    });
    let approvalId: string | undefined;
    await expect
      .poll(
        async () => {
          const queue = await owner.get("/api/v1/approvals?status=pending");
          const { approvals } = (await queue.json()) as {
            approvals: Array<{ id: string; call: CallSummary }>;
          };
          approvalId = approvals.find(
            (approval) =>
              approval.call.kind === "resource_read" && approval.call.requester.id === reader.principalId,
          )?.id;
          return approvalId !== undefined;
        },
        { timeout: 20_000, message: "the read in the approval queue" },
      )
      .toBe(true);
    // Waiting, not answered: nothing was read yet.
    expect(settled).toBe(false);
    const approved = await owner.post(`/api/v1/approvals/${approvalId}/approve`, {
      data: { reason: "fine" },
    });
    expect(approved.status(), await approved.text()).toBe(200);
    const result = await read;
    expect(result.contents[0]).toMatchObject({ uri: PLAN, text: "plan: acquire the competitor" });
  } finally {
    await client.close();
    await owner.patch(`/api/v1/servers/${SERVER}`, { data: { resourceReadsNeedApproval: false } });
  }
  const [latest] = await callsOf(owner, reader.principalId, "resource_read");
  expect(latest).toMatchObject({ status: "succeeded", tool: PLAN });
});
