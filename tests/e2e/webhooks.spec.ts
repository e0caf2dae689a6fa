import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";
import { type RestoreEffect, unclassifyTool } from "./tool-effects";

/*
 * Webhooks as an admin sets them up: added in Settings → Webhooks (the signing secret shown once),
 * a receiver in this test gets signed deliveries for an approval requested and then decided, and a
 * receiver that fails twice shows its retries in the delivery log until it is delivered.
 * local-tools__echo is made unclassified for this spec, so it needs approval (external-write).
 */

test.describe.configure({ mode: "serial" });

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
const plans = new Map<string, number[]>();
let server: Server;
let base = "";
let agent: APIRequestContext;
let restoreEffect: RestoreEffect | undefined;
const suffix = Date.now();

test.beforeAll(async ({ playwright, baseURL }) => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body });
      const status = plans.get(path)?.shift() ?? 200;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { e2eBootstrapKey } = await import("../../playwright.config");
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  await waitUntilReady(api, "local-tools", 60_000);
  ({ agent } = await createAgent(api, playwright, {
    baseURL,
    name: `webhooks-e2e-${suffix}`,
    patterns: ["local-tools__*"],
  }));
  restoreEffect = await unclassifyTool(api, "local-tools__echo");
  await api.dispose();
});

test.afterAll(async ({ api }) => {
  // The shared server keeps no webhook of this spec, nor a call waiting in the queue.
  const { webhooks } = (await (await api.get("/api/v1/webhooks")).json()) as {
    webhooks: { id: string; name: string }[];
  };
  for (const hook of webhooks.filter((w) => w.name.endsWith(String(suffix))))
    await api.delete(`/api/v1/webhooks/${hook.id}`);
  await restoreEffect?.(api);
  await agent?.dispose();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

async function addWebhook(page: import("@playwright/test").Page, name: string, url: string): Promise<void> {
  await page.locator("#webhook-name").fill(name);
  await page.locator("#webhook-url").fill(url);
  await page.locator("#webhook-format").selectOption("generic");
  await page.getByRole("button", { name: "Add webhook" }).click();
}

test("a receiver gets signed deliveries for an approval requested and decided", async ({ page, api }) => {
  await page.goto("/settings/webhooks");
  await expect(page.getByRole("heading", { name: "Add a webhook" })).toBeVisible();
  const name = `Approvals receiver ${suffix}`;
  await addWebhook(page, name, `${base}/signed`);
  const secretField = page.getByLabel(`Signing secret of ${name}`);
  await expect(secretField).toHaveValue(/^whsec_/);
  const secret = await secretField.inputValue();
  const card = page.getByTestId(`webhook-${name}`);
  await expect(card).toContainText("Approval requested · Approval decided");
  // The URL is shown masked, the secret only in the one-time field.
  await expect(card).toContainText(`${base}/…`);
  await page.screenshot({ path: "test-results/webhooks-settings.png", fullPage: true });
  await page.getByRole("button", { name: "Done" }).click();
  await expect(secretField).toHaveCount(0);

  const text = `webhook e2e ${suffix}`;
  const created = await agent.post("/api/v1/calls", {
    data: { tool: "local-tools__echo", arguments: { text }, waitSeconds: 0 },
  });
  expect(created.status(), await created.text()).toBe(202);
  const callId = ((await created.json()) as { call: { id: string } }).call.id;
  await expect.poll(() => received.filter((r) => r.path === "/signed").length).toBe(1);
  const approved = await api.post(`/api/v1/approvals/${callId}/approve`, { data: { reason: "webhook e2e" } });
  expect(approved.status(), await approved.text()).toBe(200);
  await expect.poll(() => received.filter((r) => r.path === "/signed").length).toBe(2);

  const [requested, decided] = received.filter((r) => r.path === "/signed");
  for (const delivery of [requested, decided]) {
    const timestamp = delivery?.headers["x-switchboard-timestamp"];
    const mac = createHmac("sha256", secret).update(`${timestamp}.${delivery?.body}`).digest("hex");
    expect(delivery?.headers["x-switchboard-signature"]).toBe(`v1=${mac}`);
  }
  expect(JSON.parse(requested?.body ?? "{}")).toMatchObject({
    type: "approval.requested",
    data: { callId, tool: "local-tools__echo" },
  });
  expect(JSON.parse(decided?.body ?? "{}")).toMatchObject({
    type: "approval.decided",
    data: { callId, decision: "approved", reason: "webhook e2e" },
  });

  // The delivery log says so too.
  await page.reload();
  await expect(card.getByTestId("webhook-delivery")).toHaveCount(2);
  await expect(card.getByTestId("webhook-delivery").first()).toContainText("Delivered");
});

test("a failing receiver shows its retries, then the delivery that got through", async ({ page }) => {
  plans.set("/flaky", [500, 500]);
  await page.goto("/settings/webhooks");
  const name = `Flaky receiver ${suffix}`;
  await addWebhook(page, name, `${base}/flaky`);
  const card = page.getByTestId(`webhook-${name}`);
  await expect(card.getByText("Nothing sent yet")).toBeVisible();
  await card.getByRole("button", { name: "Send test" }).click();

  const delivery = card.getByTestId("webhook-delivery");
  await expect(delivery).toHaveCount(1);
  // While it retries: the failure, and when it is tried next.
  await expect(delivery).toContainText("Retrying");
  await expect(delivery.getByTestId("webhook-attempt").first()).toContainText(
    "the receiver answered HTTP 500",
  );
  await expect(delivery).toContainText("next try");
  await expect(delivery).toContainText("Delivered", { timeout: 20_000 });
  await expect(delivery).toContainText("3 attempts");
  await expect(delivery.getByTestId("webhook-attempt")).toHaveCount(3);
  await expect(delivery.getByTestId("webhook-attempt").nth(2)).toContainText("HTTP 200");
  await page.screenshot({ path: "test-results/webhooks-retries.png", fullPage: true });
  expect(received.filter((r) => r.path === "/flaky")).toHaveLength(3);
});

test("the sidebar and the tab's title count the approvals waiting, live", async ({ page, api }) => {
  const pendingNow = async () =>
    ((await (await api.get("/api/v1/approvals?status=pending&limit=200")).json()) as { approvals: unknown[] })
      .approvals.length;
  await page.goto("/servers");
  await expect(page.getByRole("heading", { name: "Servers", level: 1 })).toBeVisible();
  const before = await pendingNow();
  const badge = page.getByRole("navigation", { name: "Main" }).getByTestId("pending-approvals-count");
  // The badge reads ", waiting: n" to a screen reader (the words are visually hidden).
  const countText = (n: number) => new RegExp(`waiting: ${n}$`);
  if (before === 0) await expect(badge).toHaveCount(0);
  else await expect(badge).toHaveText(countText(before));

  const created = await agent.post("/api/v1/calls", {
    data: { tool: "local-tools__echo", arguments: { text: `count me ${suffix}` }, waitSeconds: 0 },
  });
  expect(created.status(), await created.text()).toBe(202);
  const callId = ((await created.json()) as { call: { id: string } }).call.id;
  // No reload: the event stream brings it.
  await expect(badge).toHaveText(countText(before + 1));
  await expect(page).toHaveTitle(new RegExp(`^\\(${before + 1}\\) `));

  const denied = await api.post(`/api/v1/approvals/${callId}/deny`, { data: { reason: "counted" } });
  expect(denied.status(), await denied.text()).toBe(200);
  if (before === 0) {
    await expect(badge).toHaveCount(0);
    await expect(page).not.toHaveTitle(/^\(\d+\) /);
  } else await expect(badge).toHaveText(countText(before));
});
