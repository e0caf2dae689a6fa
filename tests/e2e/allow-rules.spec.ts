import type { APIRequestContext } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";
import { type RestoreEffect, unclassifyTool } from "./tool-effects";

/*
 * Allow rules as an approver lives them: approve a held call and, in the same step, allow the agent
 * matching calls for a while; the next matching call runs without waiting and its page says which
 * rule let it through; a call that does not match still waits; once the rule is revoked on
 * Approvals → Rules, the next matching call waits again. (Expiry is the same check by the clock —
 * tests/integration/allow-rules.test.ts moves a rule's end into the past rather than wait a minute.)
 * local-tools__echo is made unclassified for this spec (enforced as external-write: it needs approval).
 */

test.describe.configure({ mode: "serial" });

const TOOL = "local-tools__echo";
type CallBody = { call: { id: string; status: string; allowedByRule: string | null } };

let agent: APIRequestContext;
let agentId: string;
let restoreEffect: RestoreEffect | undefined;

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  await waitUntilReady(api, "local-tools", 60_000);
  ({ agent, principalId: agentId } = await createAgent(api, playwright, {
    baseURL,
    name: `rules-e2e-${Date.now()}`,
    patterns: ["local-tools__*"],
  }));
  restoreEffect = await unclassifyTool(api, TOOL);
  await api.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  await agent?.dispose();
  // Leave no call of this agent in the shared queue, and no rule of it active.
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  const { approvals } = (await (await api.get("/api/v1/approvals?status=pending")).json()) as {
    approvals: { call: { id: string; requester: { id: string } } }[];
  };
  for (const { call } of approvals.filter((a) => agentId && a.call.requester.id === agentId))
    await api.post(`/api/v1/approvals/${call.id}/deny`, { data: { reason: "e2e clean-up" } });
  const { allowRules } = (await (await api.get("/api/v1/allow-rules")).json()) as {
    allowRules: { id: string; status: string; principal: { id: string } }[];
  };
  for (const rule of allowRules.filter((r) => r.principal.id === agentId && r.status === "active"))
    await api.delete(`/api/v1/allow-rules/${rule.id}`);
  await restoreEffect?.(api);
  await api.dispose();
});

const echo = async (text: string, waitSeconds: number): Promise<CallBody["call"]> => {
  const response = await agent.post("/api/v1/calls", {
    data: { tool: TOOL, arguments: { text }, waitSeconds },
    timeout: 60_000,
  });
  return ((await response.json()) as CallBody).call;
};

test("approve and allow: the next matching call runs at once, a revoked rule lets the next one wait again", async ({
  page,
}) => {
  const run = Date.now();
  await page.goto("/approvals");
  await expect(page.getByTestId("connection-state")).toHaveText("Live", { timeout: 15_000 });

  const held = await echo(`rule-${run}-first`, 0);
  expect(held.status).toBe("pending_approval");
  await page.getByTestId(`approval-${held.id}`).click();
  const detail = page.getByTestId("approval-detail");
  await expect(detail).toContainText(`rule-${run}-first`);

  // Allow for 15 minutes, only while `text` matches this run's prefix (prefilled from the call).
  await detail.getByLabel(/without approval for/).selectOption({ label: "15 minutes" });
  await detail.getByRole("checkbox", { name: "text" }).check();
  await detail.getByLabel("How text is compared").selectOption("matches");
  const value = detail.getByLabel("Value of text");
  await expect(value).toHaveValue(`rule-${run}-first`);
  await value.fill(`rule-${run}-.*`);
  await detail.screenshot({ path: "test-results/allow-rules-approve.png" });
  await detail.getByRole("button", { name: /Approve and allow/ }).click();
  await expect(page.getByTestId(`approval-${held.id}`)).toHaveCount(0);

  const through = await echo(`rule-${run}-second`, 30);
  expect(through).toMatchObject({ status: "succeeded" });
  expect(through.allowedByRule).toBeTruthy();
  const other = await echo(`something-else-${run}`, 0);
  expect(other).toMatchObject({ status: "pending_approval", allowedByRule: null });

  // The call's page says which rule let it through, and links to it.
  await page.goto(`/calls/${through.id}`);
  await expect(page.getByText("Allowed without waiting by allow rule")).toBeVisible();
  await page.getByTestId("allowed-by-rule").click();
  await expect(page).toHaveURL(/tab=rules/);
  const row = page.locator(`#rule-${through.allowedByRule}`);
  await expect(row).toContainText(TOOL);
  await expect(row).toContainText(`text matches /rule-${run}-.*/`);
  await expect(row.getByText("active")).toBeVisible();
  await page.screenshot({ path: "test-results/allow-rules-tab.png", fullPage: true });

  await row.getByRole("button", { name: /Revoke the rule/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(row.getByText("revoked")).toBeVisible();

  const after = await echo(`rule-${run}-third`, 0);
  expect(after).toMatchObject({ status: "pending_approval", allowedByRule: null });
});
