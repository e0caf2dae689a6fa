import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { createAgent } from "./agents";
import { admin, expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * The approval loop as an operator lives it: an agent calls a tool that needs approval through the
 * REST API, the call shows up in the open Approvals page without a reload, the operator decides it
 * from the keyboard, the waiting caller gets the outcome, and the call's page tells the whole story.
 * local-tools__write_note is the demo tool left unclassified at first run, so it is enforced as
 * external-write, which needs approval (echo and the other read-only demo tools run at once).
 */

test.describe.configure({ mode: "serial" });

const TOOL = "local-tools__write_note";

type CallBody = {
  call: {
    id: string;
    status: string;
    result: { content?: { type: string; text?: string }[] } | null;
    approval: { status: string; reason: string | null; decidedBy: { name: string } | null } | null;
  };
};

let agent: APIRequestContext;
let agentName: string;
let agentId: string;

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  // The demo server must be connected before its tools can be called.
  await waitUntilReady(api, "local-tools", 60_000);

  // An agent of its own, granted the demo server's tools: the bootstrap key belongs to no principal.
  agentName = `approvals-e2e-${Date.now()}`;
  ({ agent, principalId: agentId } = await createAgent(api, playwright, {
    baseURL,
    name: agentName,
    patterns: ["local-tools__*"],
  }));
  await api.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  await agent?.dispose();
  // A test that stopped half-way leaves no call of this agent in the shared approval queue.
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  const { approvals } = (await (await api.get("/api/v1/approvals?status=pending")).json()) as {
    approvals: { call: { id: string; requester: { id: string } } }[];
  };
  for (const { call } of approvals.filter((a) => agentId && a.call.requester.id === agentId))
    await api.post(`/api/v1/approvals/${call.id}/deny`, { data: { reason: "e2e clean-up" } });
  await api.dispose();
});

/** Page object for /approvals. */
class ApprovalsPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/approvals");
    await expect(this.page.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();
    // Live before anything is called, so the test proves the stream (not the first fetch) brings it.
    await expect(this.page.getByTestId("connection-state")).toHaveText("Live", { timeout: 15_000 });
  }

  item(callId: string): Locator {
    return this.page.getByTestId(`approval-${callId}`);
  }

  get detail(): Locator {
    return this.page.getByTestId("approval-detail");
  }
}

/** The id of the pending call whose note text is `text`, as the API lists it. */
async function pendingCallId(api: APIRequestContext, text: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      const body = (await (await api.get("/api/v1/approvals?status=pending")).json()) as {
        approvals: { call: { id: string; arguments: { text?: string } } }[];
      };
      id = body.approvals.find((a) => a.call.arguments.text === text)?.call.id;
      return id;
    })
    .toBeTruthy();
  return id as string;
}

test("a call made through the API appears live, is approved from the keyboard, and its caller gets the result", async ({
  page,
  api,
}) => {
  const approvals = new ApprovalsPage(page);
  await approvals.goto();

  const text = `hello from the approvals test ${Date.now()}`;
  // The caller waits for the decision on an open request, as an agent would.
  const waiting = agent.post("/api/v1/calls", {
    data: { tool: TOOL, arguments: { title: "approvals e2e", text }, waitSeconds: 60 },
    timeout: 90_000,
  });
  const callId = await pendingCallId(api, text);

  // It appears without a reload, readable: tool, requester, arguments as a table.
  const item = approvals.item(callId);
  await expect(item).toBeVisible();
  await expect(item).toContainText(TOOL);
  await expect(item).toContainText(agentName);
  await item.click();
  await expect(approvals.detail).toContainText(text);
  await expect(approvals.detail.getByRole("rowheader", { name: "text" })).toBeVisible();
  await expect(page.getByTestId("shortcut-legend")).toContainText("approve");

  // r → the reason; Esc → back to the shortcuts; a → approve.
  await page.keyboard.press("r");
  const reason = approvals.detail.getByRole("textbox", { name: /Reason/ });
  await expect(reason).toBeFocused();
  await page.keyboard.type("an echo is harmless");
  await page.keyboard.press("Escape");
  await expect(reason).toHaveValue("an echo is harmless"); // typing "a" in the field approved nothing
  await page.keyboard.press("a");
  await expect(page.getByTestId("decision-notice")).toContainText(`Approved ${TOOL}`);

  // The waiting caller gets the tool's answer.
  const response = await waiting;
  expect(response.status(), await response.text()).toBe(200);
  const { call } = (await response.json()) as CallBody;
  expect(call.id).toBe(callId);
  expect(call.status).toBe("succeeded");
  expect(call.result?.content?.[0]?.text).toMatch(/^Saved \S+\/approvals-e2e(-\d+)?\.md$/);
  expect(call.approval).toMatchObject({ status: "approved", reason: "an echo is harmless" });
  expect(call.approval?.decidedBy?.name).toBe(admin.name);

  // It leaves the queue and lands in the decided history.
  await expect(item).toHaveCount(0);
  const decided = page.getByTestId(`decided-${callId}`);
  await expect(decided).toContainText("Approved");
  await expect(decided).toContainText(admin.name);
  await expect(decided).toContainText("an echo is harmless");

  // The call's page: every step, in order, then the arguments and the result.
  await decided.getByRole("link", { name: TOOL }).click();
  await expect(page).toHaveURL(new RegExp(`/calls/${callId}$`));
  await expect(page.getByTestId("call-status")).toHaveText("Succeeded");
  const steps = page.getByTestId("timeline-step");
  await expect(steps).toHaveCount(5);
  expect(await steps.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-type")))).toEqual([
    "call.requested",
    "call.approval_required",
    "call.approved",
    "call.started",
    "call.succeeded",
  ]);
  await expect(steps.nth(0)).toContainText(`Requested by ${agentName}`);
  await expect(steps.nth(2)).toContainText(`Approved by ${admin.name}`);
  await expect(steps.nth(2)).toContainText("an echo is harmless");
  await expect(steps.nth(4)).toContainText("Succeeded");
  await expect(page.getByRole("region", { name: "Arguments" })).toContainText(text);
  await expect(page.getByTestId("call-result")).toContainText("approvals-e2e");
});

test("denied with d: the Events page, paused, counts what arrives, and the caller learns the reason", async ({
  page,
  context,
}) => {
  const events = page;
  await events.goto("/events?type=call.");
  await expect(events.getByTestId("connection-state")).toHaveText("Live", { timeout: 15_000 });

  const text = `please deny me ${Date.now()}`;
  const created = await agent.post("/api/v1/calls", {
    data: { tool: TOOL, arguments: { title: "approvals e2e", text }, waitSeconds: 0 },
  });
  expect(created.status(), await created.text()).toBe(202);
  const callId = ((await created.json()) as CallBody).call.id;

  // Live on the Events page, as readable rows.
  const row = (type: string) => events.locator(`[data-type="${type}"]:has(a[href="/calls/${callId}"])`);
  const required = row("call.approval_required");
  await expect(required).toBeVisible();
  await expect(required).toContainText("approval required");

  // Paused, the list holds still and counts what arrives instead.
  await events.getByRole("button", { name: "Pause" }).click();
  const approvalsTab = await context.newPage();
  const approvals = new ApprovalsPage(approvalsTab);
  await approvals.goto();
  await approvals.item(callId).click();
  await approvalsTab.keyboard.press("r");
  await approvalsTab.keyboard.type("not today");
  await approvalsTab.keyboard.press("Escape");
  await approvalsTab.keyboard.press("d");
  await expect(approvalsTab.getByTestId("decision-notice")).toContainText(`Denied ${TOOL}`);
  await expect(approvals.item(callId)).toHaveCount(0);

  await expect(events.getByTestId("held-count")).toContainText("1 new");
  await expect(row("call.denied")).toHaveCount(0);
  await events.getByRole("button", { name: /Resume/ }).click();
  const denied = row("call.denied");
  await expect(denied).toContainText(`${admin.name} denied ${TOOL}: not today`);

  // The caller, asking afterwards, learns the outcome and the reason.
  const waited = await agent.get(`/api/v1/calls/${callId}/wait?timeoutSeconds=5`);
  expect(waited.status()).toBe(200);
  const { call } = (await waited.json()) as CallBody;
  expect(call.status).toBe("denied");
  expect(call.approval).toMatchObject({ status: "denied", reason: "not today" });
  expect(call.result).toBeNull();
  await approvalsTab.close();
});

test("a call someone else decided first is a clear 409, not a second decision", async ({ page, api }) => {
  const text = `decided elsewhere ${Date.now()}`;
  const created = await agent.post("/api/v1/calls", {
    data: { tool: TOOL, arguments: { title: "approvals e2e", text }, waitSeconds: 0 },
  });
  expect(created.status(), await created.text()).toBe(202);
  const callId = ((await created.json()) as CallBody).call.id;

  // With the event stream cut, this page cannot learn of the other decision: it shows a stale queue,
  // and says it is not live.
  await page.route("**/api/v1/events/stream**", (route) => route.abort());
  await page.goto("/approvals");
  await expect(page.getByTestId("connection-state")).toHaveText(/Reconnecting|Connecting/);
  await page.getByTestId(`approval-${callId}`).click();

  const denied = await api.post(`/api/v1/approvals/${callId}/deny`, { data: { reason: "beaten to it" } });
  expect(denied.status(), await denied.text()).toBe(200);

  await page.keyboard.press("a");
  const notice = page.getByTestId("decision-notice");
  await expect(notice).toContainText("Not approved: already decided");
  await expect(notice).toContainText('already denied by API key "bootstrap"');
  // The queue refreshes after the answer, so the stale entry goes away.
  await expect(page.getByTestId(`approval-${callId}`)).toHaveCount(0);

  const { call } = (await (await api.get(`/api/v1/calls/${callId}`)).json()) as CallBody;
  expect(call.status).toBe("denied");
  expect(call.approval?.reason).toBe("beaten to it");
});
