import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import type { APIRequestContext } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { createAgent } from "./agents";
import { cliEnv, makeConfigHome, runCli } from "./cli-runner";
import { admin, expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";
import { type RestoreEffect, unclassifyTool } from "./tool-effects";

/*
 * "Approve with edits" as an approver lives it: an agent calls a gated tool through /mcp with the
 * SDK, the approver corrects an argument with the tool's own form on the Approvals page, the agent
 * receives the edited call's result with a note saying what changed, and the call's page shows
 * both versions. word_count is made unclassified (external-write: needs approval) and put back.
 */

test.describe.configure({ mode: "serial" });

const TOOL = "local-tools__word_count";
let api: APIRequestContext;
let agentRest: APIRequestContext;
let agentId = "";
let client: Client;
let restoreEffect: RestoreEffect | undefined;

test.beforeAll(async ({ playwright, baseURL }) => {
  api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  await waitUntilReady(api, "local-tools", 60_000);
  const created = await createAgent(api, playwright, {
    baseURL,
    name: `approval-edits-e2e-${Date.now()}`,
    patterns: [TOOL],
  });
  agentId = created.principalId;
  agentRest = created.agent;
  restoreEffect = await unclassifyTool(api, TOOL);

  client = new Client({ name: "approval-edits-e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", baseURL), {
      requestInit: { headers: { Authorization: `Bearer ${created.key}` } },
    }),
  );
});

test.afterAll(async () => {
  await client?.close();
  await agentRest?.dispose();
  // A test that stopped half-way leaves no call of this agent in the shared queue.
  const { approvals } = (await (await api.get("/api/v1/approvals?status=pending")).json()) as {
    approvals: { call: { id: string; requester: { id: string } } }[];
  };
  for (const { call } of approvals.filter((a) => a.call.requester.id === agentId))
    await api.post(`/api/v1/approvals/${call.id}/deny`, { data: { reason: "e2e clean-up" } });
  await restoreEffect?.(api);
  await api.dispose();
});

test("an approver edits an argument; the agent gets the edited call's result, and the call page shows both", async ({
  page,
}) => {
  await page.goto("/approvals");
  await expect(page.getByTestId("connection-state")).toHaveText("Live", { timeout: 15_000 });

  const progress: Progress[] = [];
  const pending = client.callTool({ name: TOOL, arguments: { text: "one two three" } }, undefined, {
    onprogress: (p) => progress.push(p),
    resetTimeoutOnProgress: true,
    timeout: 90_000,
  });
  await expect
    .poll(() => progress[0]?.message ?? "", { timeout: 20_000 })
    .toMatch(/^waiting for approval — call /);
  const callId = /call (\S+)$/.exec(progress[0]?.message ?? "")?.[1] ?? "";

  await page.getByTestId(`approval-${callId}`).click();
  const detail = page.getByTestId("approval-detail");
  await detail.getByRole("button", { name: "Edit arguments…" }).click();
  const editor = detail.getByTestId("argument-editor");
  // The playground's form, generated from the tool's input schema, starts from the requested value.
  const field = editor.getByRole("textbox", { name: /text/ });
  await expect(field).toHaveValue("one two three");

  // An argument set the schema refuses is refused beside its field, and nothing is decided.
  await field.fill("");
  await editor.getByRole("button", { name: "Approve with these arguments" }).click();
  await expect(editor.locator("#arg-text-error")).toBeVisible();
  await expect(page.getByTestId(`approval-${callId}`)).toBeVisible();

  await field.fill("one two three four five");
  await page.screenshot({ path: "test-results/approval-edit-form.png", fullPage: true });
  await editor.getByRole("button", { name: "Approve with these arguments" }).click();
  await expect(page.getByTestId("decision-notice")).toContainText("Approved");

  // The agent, through /mcp: the edited call's result, then a note it can read, and structured _meta.
  const result = (await pending) as CallToolResult;
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ words: 5 });
  const texts = result.content.map((c) => (c.type === "text" ? c.text : ""));
  expect(texts.at(-1)).toContain("an approver changed the arguments of this call");
  expect(texts.at(-1)).toContain('- text: requested "one two three", ran with "one two three four five"');
  expect(result._meta?.["switchboard/editedArguments"]).toEqual({
    fields: ["text"],
    requested: { text: "one two three" },
    approved: { text: "one two three four five" },
  });

  // The call's page: both versions, field by field, and the edit in the timeline.
  await page.goto(`/calls/${callId}`);
  await expect(page.getByTestId("call-status")).toHaveText("Succeeded");
  const row = page.getByTestId("argument-edit-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("rowheader")).toHaveText("text");
  await expect(row.getByRole("cell").nth(0)).toHaveText("one two three");
  await expect(row.getByRole("cell").nth(1)).toHaveText("one two three four five");
  const approved = page.locator('[data-testid="timeline-step"][data-type="call.approved"]');
  await expect(approved).toContainText(`Approved by ${admin.name} with edited arguments`);
  await expect(approved).toContainText("Changed: text");
  await page.screenshot({ path: "test-results/approval-edit-call-page.png", fullPage: true });
});

test("switchboard approvals approve --arguments runs the edited call; a schema refusal names the field", async ({
  baseURL,
}) => {
  const created = await agentRest.post("/api/v1/calls", {
    data: { tool: TOOL, arguments: { text: "from the cli test" }, waitSeconds: 0 },
  });
  expect(created.status(), await created.text()).toBe(202);
  const callId = ((await created.json()) as { call: { id: string } }).call.id;
  const env = cliEnv(baseURL ?? "", makeConfigHome());

  const refused = await runCli(["approvals", "approve", callId, "--arguments", '{"text": 5}'], env);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("text must be text");

  const approved = await runCli(
    ["approvals", "approve", callId, "--arguments", '{"text": "two words"}'],
    env,
  );
  expect(approved.code, approved.stderr).toBe(0);
  expect(approved.stdout).toContain("with edited arguments");

  const waited = await agentRest.get(`/api/v1/calls/${callId}/wait?timeoutSeconds=30`);
  const { call } = (await waited.json()) as {
    call: {
      status: string;
      argumentEdit: { editedFields: string[]; requestedArguments: Record<string, unknown> } | null;
      result: { structuredContent?: { words: number }; content: { text?: string }[] } | null;
    };
  };
  expect(call.status).toBe("succeeded");
  expect(call.argumentEdit).toEqual({
    editedFields: ["text"],
    requestedArguments: { text: "from the cli test" },
  });
  expect(call.result?.structuredContent?.words).toBe(2);
  expect(call.result?.content.at(-1)?.text).toContain("an approver changed the arguments");
});
