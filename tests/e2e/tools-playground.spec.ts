import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/**
 * Tools, Playground and Principals as an admin uses them: classify a tool beside its (untrusted)
 * hints, run it as yourself through the governed path, then onboard an agent — key shown once,
 * grants deny by default — and prove the key can call exactly what was granted.
 */

const WORD_COUNT = "local-tools__word_count";
const ECHO = "local-tools__echo";
/** A fixture server whose `mutable` tool changes its description when `toggle` is called. */
const driftServer = {
  name: "drift-demo",
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", path.join(process.cwd(), "tests/fixtures/mcp-servers/catalog-changing.ts")],
  cwd: process.cwd(),
};

type ToolsBody = { tools: { id: string; gatewayName: string; effect: string | null }[] };
type CallBody = { call: { id: string; status: string; result: { content?: { text?: string }[] } | null } };

async function findTool(api: APIRequestContext, gatewayName: string) {
  const body = (await (await api.get(`/api/v1/tools?q=${gatewayName}`)).json()) as ToolsBody;
  return body.tools.find((tool) => tool.gatewayName === gatewayName);
}

/** POST /api/v1/calls as an agent, with its own gateway key. */
async function callAs(page: Page, key: string, tool: string, args: Record<string, unknown>) {
  const response = await page.request.post("/api/v1/calls", {
    headers: { Authorization: `Bearer ${key}` },
    data: { tool, arguments: args },
  });
  return (await response.json()) as CallBody;
}

test.describe.configure({ mode: "serial" });

test.describe("tools, playground and principals", () => {
  /** word_count's effect before this file changed it (read: the demo tools come classified). */
  let originalEffect: string | null = null;

  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    await waitUntilReady(api, "local-tools");
    await expect.poll(async () => (await findTool(api, WORD_COUNT))?.id).toBeTruthy();
    originalEffect = (await findTool(api, WORD_COUNT))?.effect ?? null;
    await api.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    // Put word_count back as it was, so other specs see the demo server as they expect it. (The
    // `api` fixture is per test; afterAll gets its own context.)
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    const tool = await findTool(api, WORD_COUNT);
    if (tool) await api.patch(`/api/v1/tools/${tool.id}`, { data: { effect: originalEffect } });
    await api.delete(`/api/v1/servers/${driftServer.name}`);
    await api.dispose();
  });

  test("classify word_count as read beside its hints, then run it in the playground without approval", async ({
    page,
    api,
  }) => {
    await waitUntilReady(api, "local-tools");
    // The demo tools come classified read; this test classifies one as an admin would, from unclassified.
    await expect.poll(async () => (await findTool(api, WORD_COUNT))?.id).toBeTruthy();
    const id = (await findTool(api, WORD_COUNT))?.id;
    expect((await api.patch(`/api/v1/tools/${id}`, { data: { effect: null } })).ok()).toBe(true);

    await page.goto("/tools");
    await expect(page.getByRole("heading", { name: "Tools", level: 1 })).toBeVisible();
    await page.getByRole("searchbox", { name: "Search tools" }).fill("word_count");
    const row = page.getByTestId(`tool-${WORD_COUNT}`);
    await expect(row.getByText("Server hints (untrusted)")).toBeVisible();
    await expect(row.getByText("read-only")).toBeVisible();
    const effect = row.getByLabel("Effect", { exact: true });
    await expect(effect).toHaveValue("");
    await expect(row.getByText("Treated as external-write until an admin classifies it.")).toBeVisible();

    await effect.selectOption("read");
    await expect(row.getByText("Treated as external-write until an admin classifies it.")).toHaveCount(0);
    await expect(row.getByTitle("Enforced as external-write until an admin classifies it")).toHaveCount(0);
    await expect(row.getByText("Calls run without approval.")).toBeVisible();
    await expect.poll(async () => (await findTool(api, WORD_COUNT))?.effect).toBe("read");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" }).click();
    await expect(page.getByRole("heading", { name: "Playground", level: 1 })).toBeVisible();
    const picker = page.getByRole("combobox", { name: "Tool", exact: true });
    await picker.click();
    await page.getByRole("combobox", { name: "Search enabled tools" }).fill("word_count");
    await page.getByRole("option", { name: new RegExp(WORD_COUNT) }).click();
    await expect(picker).toHaveText(WORD_COUNT);
    await expect(page).toHaveURL(new RegExp(`\\?tool=${WORD_COUNT}$`));
    await expect(page.getByText("runs without approval")).toBeVisible();
    await page.getByRole("textbox", { name: "text", exact: true }).fill("one two three");
    await page.getByRole("button", { name: "Run", exact: true }).click();

    const result = page.getByTestId("call-result");
    await expect(result).toContainText("3 words", { timeout: 20_000 });
    await expect(result).toContainText("Succeeded");
    await expect(result.getByRole("row", { name: "words 3" })).toBeVisible();
    await expect(result.getByTestId("call-duration")).toContainText(/took \d/);
    await expect(page.getByTestId("call-waiting")).toHaveCount(0);
  });

  test("the tool picker works from the keyboard, keeps the active tool in view, and the URL keeps the pick", async ({
    page,
  }) => {
    // A short window, so the list (fitted to the room below the picker) is taller than its box.
    await page.setViewportSize({ width: 1280, height: 480 });
    await page.goto("/playground");
    const picker = page.getByRole("combobox", { name: "Tool", exact: true });
    await picker.focus();
    await page.keyboard.press("ArrowDown");
    const search = page.getByRole("combobox", { name: "Search enabled tools" });
    const list = page.getByRole("listbox", { name: "Enabled tools" });
    await expect(search).toBeFocused();
    // Up from the first tool wraps to the last, which is scrolled into view.
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await page.keyboard.press("ArrowUp");
    await expect(list.getByRole("option").last()).toHaveAttribute("aria-selected", "true");
    await expect(list.getByRole("option").last()).toBeInViewport();

    // Typing narrows the list; Enter picks the active tool, closes it and returns to the picker.
    await page.keyboard.type(ECHO);
    await expect(list.getByRole("option")).toHaveCount(1);
    await expect(list.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(list).toBeHidden();
    await expect(picker).toBeFocused();
    await expect(picker).toHaveText(ECHO);
    await expect(page).toHaveURL(new RegExp(`\\?tool=${ECHO}$`));
    await page.reload();
    await expect(picker).toHaveText(ECHO);

    // Typing on the picker starts a search; Escape leaves the pick as it was.
    await picker.focus();
    await page.keyboard.type("word");
    await expect(search).toHaveValue("word");
    await page.keyboard.press("Escape");
    await expect(list).toBeHidden();
    await expect(picker).toHaveText(ECHO);
  });

  test("create a principal, see its key once, and grant it local-tools__* (deny by default)", async ({
    page,
  }) => {
    const name = `e2e-agent-${Date.now().toString(36)}`;
    await page.goto("/principals");
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await page.getByRole("textbox", { name: "Description" }).fill("Playwright's agent");
    await page.getByRole("button", { name: "Create principal" }).click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    const principalId = decodeURIComponent(/\/principals\/([^/?]+)/.exec(page.url())?.[1] ?? "");
    expect(principalId).not.toBe("");
    await expect(page.getByTestId("grants-coverage")).toContainText(/^0 of \d+ tools$/);

    await page.getByRole("textbox", { name: "Key name" }).fill("laptop");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await page.getByRole("textbox", { name: "New gateway key" }).inputValue();
    expect(key).toMatch(/^sb_/);
    await expect(page.getByTestId("principal-key-laptop")).toContainText("Active");

    // Shown once: after a reload only the prefix is left.
    await page.reload();
    await expect(page.getByTestId("one-time-value")).toHaveCount(0);
    await expect(page.getByTestId("principal-key-laptop")).toContainText(key.slice(0, 9));
    await expect(page.locator("body")).not.toContainText(key);

    // Deny by default: no grant yet, so the agent's call is refused.
    expect((await callAs(page, key, WORD_COUNT, { text: "one two three" })).call.status).toBe("denied");

    await page.getByRole("combobox", { name: "Grant pattern" }).fill("local-tools__*");
    await page.getByRole("button", { name: "Add grant" }).click();
    await expect(page.getByTestId("grant-local-tools__*")).toContainText("matches 4 tools");
    await expect(page.getByText("1 pattern", { exact: true })).toBeVisible();
    const grants = await page.request.get(`/api/v1/principals/${principalId}/grants`);
    expect(await grants.json()).toEqual({ patterns: ["local-tools__*"] });

    const granted = await callAs(page, key, WORD_COUNT, { text: "one two three" });
    expect(granted.call.status).toBe("succeeded");
    expect(granted.call.result?.content?.[0]?.text).toContain("3 words");

    // "Its calls" opens the call history filtered to this agent: the refused call and this one.
    await page.getByRole("link", { name: "Its calls" }).click();
    await expect(page).toHaveURL(new RegExp(`/calls\\?requester=${principalId}$`));
    await expect(page.getByTestId(`call-row-${granted.call.id}`)).toContainText("Succeeded");
    await expect(page.getByText("2 calls shown")).toBeVisible();

    // Settings → API keys lists the key as this agent's, linked to it.
    await page.goto("/settings/api-keys");
    const keyRow = page.getByTestId("api-key-laptop").filter({ hasText: key.slice(0, 9) });
    await expect(keyRow).toContainText(`of ${name}`);
    await keyRow.getByRole("link", { name }).click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();

    // Deleted after a confirmation: its key stops working at once, its calls stay on record.
    await page.getByRole("button", { name: "Delete principal" }).click();
    await page
      .getByRole("dialog", { name: `Delete the principal "${name}"?` })
      .getByRole("button", { name: "Delete principal" })
      .click();
    await expect(page).toHaveURL(/\/principals$/);
    await expect(page.getByRole("link", { name })).toHaveCount(0);
    const refused = await page.request.post("/api/v1/calls", {
      headers: { Authorization: `Bearer ${key}` },
      data: { tool: WORD_COUNT, arguments: { text: "after" } },
    });
    expect(refused.status()).toBe(401);
    expect((await page.request.get(`/api/v1/calls/${granted.call.id}`)).status()).toBe(200);
  });

  test("lowering an effect below the hints asks first; a drifted tool falls back to unclassified, flagged live", async ({
    page,
    api,
  }) => {
    expect((await api.post("/api/v1/servers", { data: driftServer })).status()).toBe(201);
    await waitUntilReady(api, driftServer.name);
    await page.goto("/tools");
    await page.getByRole("combobox", { name: "Server" }).selectOption(driftServer.name);

    // No hints at all: MCP reads that as possibly destructive, so "write" is a lowering to confirm.
    const mutable = page.getByTestId("tool-drift-demo__mutable");
    await mutable.getByLabel("Effect", { exact: true }).selectOption("write");
    await expect(mutable.getByRole("alert")).toContainText("possibly destructive");
    await mutable.getByRole("button", { name: "Set to write" }).click();
    await expect.poll(async () => (await findTool(api, "drift-demo__mutable"))?.effect).toBe("write");
    const toggle = page.getByTestId("tool-drift-demo__toggle");
    await toggle.getByLabel("Effect", { exact: true }).selectOption("read");
    await toggle.getByRole("button", { name: "Set to read" }).click();
    await expect.poll(async () => (await findTool(api, "drift-demo__toggle"))?.effect).toBe("read");
    await expect(mutable.getByText("needs review")).toHaveCount(0);

    // `toggle` rewrites `mutable`'s description: its reviewed class no longer applies. The page,
    // left open, learns it from the event stream.
    const call = await page.request.post("/api/v1/calls", { data: { tool: "drift-demo__toggle" } });
    expect(((await call.json()) as CallBody).call.status).toBe("succeeded");
    await expect(mutable.getByText("needs review")).toBeVisible({ timeout: 20_000 });
    await expect(mutable.getByLabel("Effect", { exact: true })).toHaveValue("");
    await expect(mutable).toContainText("Generation 1.");
  });
});
