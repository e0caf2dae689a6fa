import type { APIRequestContext, Page } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * The dashboard on a phone (390×844, an iPhone 12–15): every page fits the screen's width (a wide
 * table scrolls inside its own box, the page itself never sideways), the sidebar is a drawer behind
 * a menu button, and an approver on call can open a waiting call and approve it with a reason,
 * with the thumb. local-tools__write_note is unclassified at first run, so a call to it waits for
 * approval (see approvals.spec.ts).
 */

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 390, height: 844 } });

const PHONE_WIDTH = 390;
const TOOL = "local-tools__write_note";

type Target = { path: string; ready?: (page: Page) => Promise<void> };

/** Filled in by beforeAll: an agent with a finished call and a call waiting for approval. */
const made = { principalId: "", principalName: "", callId: "", pendingCallId: "" };
let agent: APIRequestContext | undefined;

const serverTabs = ["tools", "resources", "prompts", "health", "diagnostics", "snapshots"];
const settingsPages = [
  "members",
  "api-keys",
  "secrets",
  "approvals",
  "egress",
  "limits",
  "webhooks",
  "gateway",
  "audit",
];

const pages: Target[] = [
  { path: "/" },
  { path: "/servers", ready: (page) => expect(page.getByTestId("server-row-local-tools")).toBeVisible() },
  { path: "/servers/new" },
  ...serverTabs.map((tab) => ({
    path: `/servers/local-tools?tab=${tab}`,
    ready: async (page: Page) => {
      await expect(page.getByRole("tab", { name: new RegExp(tab, "i") })).toHaveAttribute(
        "aria-selected",
        "true",
      );
      await expect(page.getByTestId("server-status")).toContainText("Ready", { timeout: 30_000 });
    },
  })),
  { path: "/servers/local-tools/edit" },
  { path: "/tools" },
  { path: "/playground" },
  { path: "/agent" },
  { path: "/calls", ready: (page) => expect(page.getByTestId(`call-row-${made.callId}`)).toBeVisible() },
  { path: "/calls/{call}", ready: (page) => expect(page.getByTestId("call-status")).toBeVisible() },
  {
    path: "/approvals",
    ready: (page) => expect(page.getByTestId(`approval-${made.pendingCallId}`)).toBeVisible(),
  },
  { path: "/approvals?tab=rules" },
  { path: "/events" },
  { path: "/principals" },
  { path: "/principals/{principal}" },
  { path: "/settings" },
  ...settingsPages.map((name) => ({ path: `/settings/${name}` })),
  { path: "/settings/instance" },
  { path: "/api" },
];

const resolve = (path: string) =>
  path.replace("{principal}", made.principalId).replace("{call}", made.callId);

/**
 * How far the page scrolls sideways, and what sticks out: the outermost elements past the right
 * edge that no scrolling box catches (so a report names the culprit, not its children). An
 * absolutely placed element (an sr-only label) is caught only by a box at or inside its containing
 * block: inside a scrolling table that is not `relative`, it widens the page from there.
 */
async function measureOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    const edge = root.clientWidth + 1;
    const sticksOut = (element: Element) => element.getBoundingClientRect().right > edge;
    const isCaught = (element: Element) => {
      let escapes = getComputedStyle(element).position === "absolute";
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        const clips = style.overflowX !== "visible";
        if (!escapes && clips) return true;
        if (escapes && style.position !== "static") {
          if (clips) return true;
          escapes = style.position === "absolute";
        }
      }
      return false;
    };
    const culprits: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      if (!sticksOut(element) || getComputedStyle(element).position === "fixed" || isCaught(element))
        continue;
      const parent = element.parentElement;
      if (parent && parent !== document.body && sticksOut(parent) && !isCaught(parent)) continue;
      const classes = (element.getAttribute("class") ?? "").slice(0, 80);
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      culprits.push(`<${element.tagName.toLowerCase()} class="${classes}"> "${text}"`);
    }
    return { overflow: root.scrollWidth - root.clientWidth, culprits: culprits.slice(0, 3) };
  });
}

/** A 44 px target, the size a thumb hits without aiming (Apple HIG; WCAG 2.5.5). */
async function expectThumbSized(page: Page, name: RegExp): Promise<void> {
  const button = page.getByTestId("approval-detail").getByRole("button", { name });
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  expect(box, `${name} is laid out`).not.toBeNull();
  if (!box) return;
  expect(box.height, `${name} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
  expect(box.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(PHONE_WIDTH);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  await waitUntilReady(api, "local-tools", 60_000);
  made.principalName = `mobile-${Date.now()}`;
  let principalId: string;
  ({ principalId, agent } = await createAgent(api, playwright, {
    baseURL,
    name: made.principalName,
    patterns: ["local-tools__*"],
  }));
  made.principalId = principalId;
  const echoed = await agent.post("/api/v1/calls", {
    data: { tool: "local-tools__echo", arguments: { text: "from a phone" } },
  });
  expect(echoed.status(), await echoed.text()).toBe(200);
  made.callId = ((await echoed.json()) as { call: { id: string } }).call.id;
  const held = await agent.post("/api/v1/calls", {
    data: { tool: TOOL, arguments: { title: "mobile e2e", text: "approve me on a phone" }, waitSeconds: 0 },
  });
  expect(held.status(), await held.text()).toBe(202);
  made.pendingCallId = ((await held.json()) as { call: { id: string } }).call.id;
  await api.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  await agent?.dispose();
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  // A test that stopped half-way leaves nothing in the shared approval queue.
  if (made.pendingCallId)
    await api.post(`/api/v1/approvals/${made.pendingCallId}/deny`, { data: { reason: "e2e clean-up" } });
  if (made.principalId) await api.delete(`/api/v1/principals/${made.principalId}`);
  await api.dispose();
});

test("no dashboard page scrolls sideways at 390 px", async ({ page }) => {
  test.setTimeout(300_000);
  const overflowing: string[] = [];
  for (const target of pages) {
    const path = resolve(target.path);
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
    await target.ready?.(page);
    // Whatever loads after the first paint (tables, tabs) is in before the page is measured.
    await expect(page.getByRole("status").filter({ hasText: /^Loading/ }), path).toHaveCount(0);
    const { overflow, culprits } = await measureOverflow(page);
    if (overflow > 0) overflowing.push(`${target.path} is ${overflow}px too wide: ${culprits.join(" · ")}`);
    if (target.path === "/servers" || target.path === "/calls" || target.path === "/settings")
      await page.screenshot({
        path: test.info().outputPath(`${target.path.slice(1)}-390.png`),
        fullPage: true,
      });
  }
  expect(overflowing, "pages wider than a phone").toEqual([]);
});

test("the menu button opens the sidebar as a drawer; Escape, the backdrop and a navigation close it", async ({
  page,
}) => {
  await page.goto("/api");
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  // The page is taller than the screen, so it would scroll behind an open drawer if it could.
  expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);

  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav).toBeVisible();
  const drawer = page.locator(`[id="${await menu.getAttribute("aria-controls")}"]`);
  await expect(drawer).toContainText("Approvals");
  await expect(page.getByRole("button", { name: "Close menu" })).toBeFocused();
  await page.screenshot({ path: test.info().outputPath("drawer-390.png") });
  // The page behind holds still: the wheel over the backdrop scrolls nothing.
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
  await page.mouse.move(370, 500);
  await page.mouse.wheel(0, 800);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe("hidden");

  await menu.click();
  await expect(nav).toBeVisible();
  // The backdrop is the strip the drawer leaves uncovered on the right.
  await page.getByTestId("drawer-backdrop").click({ position: { x: 370, y: 400 } });
  await expect(nav).toBeHidden();

  await menu.click();
  await nav.getByRole("link", { name: "Servers" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  await expect(page.getByRole("heading", { name: "Servers", level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  // From `md` up the sidebar is beside the page again, with no menu button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(nav).toBeVisible();
  await expect(menu).toBeHidden();
});

test("a waiting call is opened, approved with a reason and leaves the queue, all on a phone", async ({
  page,
  api,
}) => {
  await page.goto("/approvals");
  const item = page.getByTestId(`approval-${made.pendingCallId}`);
  await expect(item).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("approvals-390.png"), fullPage: true });

  // List → detail: the tap brings the call's detail onto the screen.
  await item.click();
  const detail = page.getByTestId("approval-detail");
  await expect(detail).toContainText("approve me on a phone");
  await expect(detail.getByRole("heading", { name: TOOL })).toBeInViewport();

  await detail.getByRole("textbox", { name: /Reason/ }).fill("checked it from my phone");
  await expectThumbSized(page, /^Approve/);
  await expectThumbSized(page, /^Deny/);
  await page.screenshot({ path: test.info().outputPath("approval-detail-390.png") });
  await detail.getByRole("button", { name: /^Approve/ }).click();
  await expect(page.getByTestId("decision-notice")).toContainText(`Approved ${TOOL}`);
  await expect(item).toHaveCount(0);

  const response = await api.get(`/api/v1/calls/${made.pendingCallId}`);
  const { call } = (await response.json()) as { call: { approval: { status: string; reason: string } } };
  expect(call.approval).toMatchObject({ status: "approved", reason: "checked it from my phone" });
  made.pendingCallId = "";

  // The empty queue says so in a sentence, not a word per line.
  const empty = page.getByRole("heading", { name: "Nothing is waiting for approval" });
  await expect(empty).toBeVisible();
  const lineHeight = await empty.evaluate((node) => Number.parseFloat(getComputedStyle(node).lineHeight));
  expect((await empty.boundingBox())?.height ?? 0).toBeLessThanOrEqual(2 * lineHeight);
});
