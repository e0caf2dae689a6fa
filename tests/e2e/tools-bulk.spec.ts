import path from "node:path";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { removeServerAfterAll, waitUntilReady } from "./servers-page";

/**
 * First run and bulk classification. The demo servers' read-only tools come classified read, so a
 * newcomer's first call runs and a call of write_note (left unclassified) waits for a person. An
 * admin classifies a server's tools together from /tools: the server's suggestions are shown in a
 * dialog and applied only once confirmed. A server of its own for the bulk part, removed after.
 */

const server = {
  name: "bulk-demo",
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", path.join(process.cwd(), "demo-servers", "local-tools.ts")],
  cwd: process.cwd(),
};
type Tool = { id: string; gatewayName: string; effect: string | null };

removeServerAfterAll(server.name);

test("first run: the demo's read tools run at once, an unclassified one waits for approval", async ({
  api,
  playwright,
  baseURL,
}) => {
  await waitUntilReady(api, "local-tools", 60_000);
  await waitUntilReady(api, "files", 60_000);
  const effects = async () => {
    const { tools } = (await (await api.get("/api/v1/tools?limit=500")).json()) as { tools: Tool[] };
    return Object.fromEntries(tools.map((tool) => [tool.gatewayName, tool.effect]));
  };
  await expect.poll(async () => (await effects()).files__search_files).toBe("read");
  expect(await effects()).toMatchObject({
    "local-tools__current_time": "read",
    "local-tools__word_count": "read",
    "local-tools__write_note": null,
    files__list_directory: "read",
    files__read_file: "read",
  });

  const { agent } = await createAgent(api, playwright, {
    baseURL,
    name: `first-run-${Date.now()}`,
    patterns: ["local-tools__current_time", "local-tools__write_note"],
  });
  try {
    const first = await agent.post("/api/v1/calls", {
      data: { tool: "local-tools__current_time", arguments: { timeZone: "UTC" } },
    });
    expect(((await first.json()) as { call: { status: string } }).call.status).toBe("succeeded");
    const second = await agent.post("/api/v1/calls", {
      data: { tool: "local-tools__write_note", arguments: { title: "first run", text: "hello" } },
    });
    const { call } = (await second.json()) as { call: { id: string; status: string } };
    expect(call.status).toBe("pending_approval");
    await api.post(`/api/v1/approvals/${call.id}/deny`, { data: { reason: "e2e clean-up" } });
  } finally {
    await agent.dispose();
  }
});

test("an admin selects a server's tools from the keyboard, reviews its suggestions, then sets one effect", async ({
  page,
  api,
}) => {
  expect((await api.post("/api/v1/servers", { data: server })).status()).toBe(201);
  const listed = async () =>
    ((await (await api.get("/api/v1/tools?q=bulk-demo__")).json()) as { tools: Tool[] }).tools;
  await expect.poll(async () => (await listed()).length, { timeout: 30_000 }).toBe(4);
  // Registered by an admin, not at first run: nothing is classified for it.
  expect((await listed()).every((tool) => tool.effect === null)).toBe(true);

  await page.goto("/tools");
  await page.getByRole("searchbox", { name: "Search tools" }).fill("bulk-demo");
  const selectAll = page.getByRole("checkbox", { name: "Select all tools on bulk-demo" });
  await selectAll.focus();
  await page.keyboard.press("Space");
  const bar = page.getByRole("region", { name: "Selected tools" });
  await expect(bar).toContainText("4 tools selected");

  // The suggestions, one per tool, before anything is saved; Cancel saves nothing.
  await bar.getByRole("button", { name: "Apply suggestions…" }).click();
  const dialog = page.getByRole("dialog", { name: "Apply the servers' suggestions?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("suggestion-bulk-demo__echo")).toContainText("unclassified");
  await expect(dialog.getByTestId("suggestion-bulk-demo__echo")).toContainText("read");
  await expect(dialog.getByTestId("suggestion-bulk-demo__write_note")).toContainText("write");
  await page.screenshot({ path: "test-results/tools-bulk-suggestions.png" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await listed()).every((tool) => tool.effect === null)).toBe(true);

  await bar.getByRole("button", { name: "Apply suggestions…" }).click();
  await dialog.getByRole("button", { name: "Apply 4 suggestions" }).click();
  await expect(dialog).toBeHidden();
  await expect(bar.getByRole("status")).toHaveText("Applied the suggested effect to 4 tools.");
  const byName = async () =>
    Object.fromEntries((await listed()).map((tool) => [tool.gatewayName, tool.effect]));
  expect(await byName()).toEqual({
    "bulk-demo__current_time": "read",
    "bulk-demo__echo": "read",
    "bulk-demo__word_count": "read",
    "bulk-demo__write_note": "write",
  });
  await expect(
    page.getByTestId("tool-bulk-demo__write_note").getByLabel("Effect", { exact: true }),
  ).toHaveValue("write");

  // One tool out of the selection, then one effect for the other three.
  await page.getByRole("checkbox", { name: "Select bulk-demo__echo" }).uncheck();
  await expect(bar).toContainText("3 tools selected");
  await expect(selectAll).toHaveJSProperty("indeterminate", true);
  await bar.getByLabel("Set effect").selectOption("destructive");
  await bar.getByRole("button", { name: "Set effect" }).click();
  await expect(bar.getByRole("status")).toHaveText("Set 3 tools to destructive.");
  expect(await byName()).toEqual({
    "bulk-demo__current_time": "destructive",
    "bulk-demo__echo": "read",
    "bulk-demo__word_count": "destructive",
    "bulk-demo__write_note": "destructive",
  });
  await page.screenshot({ path: "test-results/tools-bulk-bar.png", fullPage: true });

  await bar.getByRole("button", { name: "Clear selection" }).click();
  await expect(bar).toBeHidden();
  await expect(selectAll).not.toBeChecked();
});
