import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { type FakeModelServer, startFakeModelServer } from "../fixtures/fake-model-server";
import { expect, test } from "./fixtures";

/*
 * The Agent page and a run's page in Chromium, against a scripted OpenAI-compatible model started
 * here: a run started from the form calls an approval-gated tool, is approved where the run is
 * shown, and its tool result and answer arrive without a reload; another run, stuck on a model that
 * never answers, is cancelled from its page. Both pages pass axe.
 */

const ECHO = "local-tools__echo";
const WORD_COUNT = "local-tools__word_count";

type Tool = { id: string; gatewayName: string; effect: string | null };

async function findTool(api: APIRequestContext, gatewayName: string): Promise<Tool> {
  let found: Tool | undefined;
  await expect
    .poll(
      async () => {
        const body = (await (await api.get(`/api/v1/tools?q=${gatewayName}`)).json()) as { tools: Tool[] };
        found = body.tools.find((tool) => tool.gatewayName === gatewayName);
        return found;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return found as Tool;
}

async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ rule: v.id, help: v.help, elements: v.nodes.map((n) => n.html) }));
  expect(found, `axe on ${what}`).toEqual([]);
}

test.describe.configure({ mode: "serial" });

test.describe("the Agent page", () => {
  let model: FakeModelServer;
  const suffix = Math.random().toString(36).slice(2, 8);
  const principalName = `agent-page-${suffix}`;
  const connectionName = `scripted-${suffix}`;
  let principalId = "";
  let connectionId = "";
  /** The demo tools' effects before this file changed them: put back afterwards, as they were. */
  const originalEffects = new Map<string, string | null>();

  test.beforeAll(async ({ playwright, baseURL }) => {
    model = await startFakeModelServer();
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    const created = await api.post("/api/v1/principals", { data: { name: principalName } });
    expect(created.status(), await created.text()).toBe(201);
    principalId = ((await created.json()) as { principal: { id: string } }).principal.id;
    const granted = await api.put(`/api/v1/principals/${principalId}/grants`, {
      data: { patterns: ["local-tools__*"] },
    });
    expect(granted.status(), await granted.text()).toBe(200);
    // echo runs at once (read); word_count stays unclassified, so it waits for an approver.
    for (const [name, effect] of [
      [ECHO, "read"],
      [WORD_COUNT, null],
    ] as const) {
      const tool = await findTool(api, name);
      if (!originalEffects.has(tool.id)) originalEffects.set(tool.id, tool.effect);
      expect((await api.patch(`/api/v1/tools/${tool.id}`, { data: { effect } })).ok()).toBe(true);
    }
    const connection = await api.post("/api/v1/model-connections", {
      data: { name: connectionName, baseUrl: model.baseUrl, model: "scripted-1" },
    });
    expect(connection.status(), await connection.text()).toBe(201);
    connectionId = ((await connection.json()) as { modelConnection: { id: string } }).modelConnection.id;
    await api.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    for (const [id, effect] of originalEffects) await api.patch(`/api/v1/tools/${id}`, { data: { effect } });
    if (connectionId) await api.delete(`/api/v1/model-connections/${connectionId}`);
    if (principalId) await api.delete(`/api/v1/principals/${principalId}`);
    await api.dispose();
    await model?.close();
  });

  test("starts a run from the form, approves its held call on the run page, and sees the answer arrive live", async ({
    page,
  }) => {
    model.script([
      { toolCalls: [{ name: WORD_COUNT, arguments: { text: "one two three" } }] },
      { text: "The text has 3 words." },
    ]);
    await page.goto("/agent");
    await expect(page.getByRole("heading", { name: "Agent", level: 1 })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agent" }),
    ).toHaveAttribute("aria-current", "page");
    await expectNoSeriousViolations(page, "/agent");

    const form = page.getByRole("region", { name: "Start a run" });
    await form.getByLabel("Principal").selectOption({ label: principalName });
    await form.getByLabel("Model connection").selectOption({ label: `${connectionName} (scripted-1)` });
    await form.getByLabel("Prompt").fill("Count the words in 'one two three'.");
    // The limits start at the service's defaults.
    await expect(form.getByLabel("Max rounds")).toHaveValue("3");
    await expect(form.getByLabel("Max tool calls")).toHaveValue("10");
    await expect(form.getByLabel("Time limit (s)")).toHaveValue("300");
    await form.getByRole("button", { name: "Start run" }).click();

    await expect(page).toHaveURL(/\/agent\/runs\/[^/]+$/);
    const runId = page.url().split("/").at(-1) ?? "";
    await expect(page.getByRole("heading", { name: /Agent run/, level: 1 })).toBeVisible();
    await expect(page.getByTestId("run-status")).toHaveText("Running");
    await expect(page.getByText(principalName, { exact: true }).first()).toBeVisible();

    // The model's turn: its tool call with the arguments as a key/value list.
    const modelTurn = page.getByRole("article", { name: "Model · round 1" });
    await expect(modelTurn).toContainText(WORD_COUNT);
    await expect(modelTurn.getByRole("definition")).toHaveText("one two three");

    // The call waits for approval, and is decided right here.
    const result = page.getByTestId("tool-result");
    await expect(result).toContainText("Waiting for approval", { timeout: 20_000 });
    const callLink = result.getByRole("link", { name: /^Call / });
    await expect(callLink).toHaveAttribute("href", /^\/calls\/.+/);
    await expect(page.getByTestId("stop-reason")).toHaveCount(0);
    await page.getByTestId("pending-approval").getByRole("button", { name: "Approve" }).click();

    // Without a reload: the result, the answer and the run's end arrive through the event stream.
    await expect(result).toContainText("Succeeded", { timeout: 20_000 });
    await expect(result.getByRole("region", { name: `Result of ${WORD_COUNT}` })).toContainText("3 words");
    await expect(page.getByTestId("run-answer")).toContainText("The text has 3 words.", { timeout: 20_000 });
    await expect(page.getByTestId("run-status")).toHaveText("Succeeded");
    await expect(page.getByText("2 of 3", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);

    await page.screenshot({ path: test.info().outputPath("agent-run.png"), fullPage: true });
    await expectNoSeriousViolations(page, "/agent/runs/[id]");

    // The call page the result links to is the governed call, made as the principal.
    await callLink.click();
    await expect(page).toHaveURL(/\/calls\//);
    await expect(page.getByTestId("call-status")).toBeVisible();

    // Back on the list, the run has its row with its counters.
    await page.goto("/agent");
    const row = page.getByTestId(`run-row-${runId}`);
    await expect(row).toContainText("Succeeded");
    await expect(row).toContainText(principalName);
    await expect(row).toContainText("2 / 1");
    await page.screenshot({ path: test.info().outputPath("agent-page.png"), fullPage: true });
  });

  test("shows a new run in the list as it starts, and cancels it from its page", async ({ page, api }) => {
    model.script([{ hang: true }]);
    await page.goto("/agent");
    await expect(page.getByTestId("connection-state")).toHaveText("Live");

    const started = await api.post("/api/v1/agent-runs", {
      data: {
        principal: principalName,
        model: connectionName,
        prompt: "Wait for a model that never answers.",
      },
    });
    expect(started.status(), await started.text()).toBe(202);
    const runId = ((await started.json()) as { run: { id: string } }).run.id;

    const row = page.getByTestId(`run-row-${runId}`);
    await expect(row).toContainText("Running");
    await row.getByRole("link", { name: "Wait for a model that never answers." }).click();
    await expect(page).toHaveURL(new RegExp(`/agent/runs/${runId}$`));
    await expect(page.getByText("Asking the model…")).toBeVisible();

    await page.getByRole("button", { name: "Cancel run" }).click();
    await expect(page.getByTestId("run-status")).toHaveText("Cancelled");
    await expect(page.getByTestId("stop-reason")).toContainText("cancelled by");
    await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
  });
});
