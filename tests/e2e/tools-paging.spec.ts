import path from "node:path";
import { expect, test } from "./fixtures";
import { removeServerAfterAll, waitUntilReady } from "./servers-page";

/**
 * The Tools page with more tools than a page holds: the server searches and filters (a tool that
 * was never loaded is found), the next page comes on request, the filters live in the URL, and a
 * search that matches nothing says so. A server of its own with 130 tools, removed after.
 */

const server = {
  name: "many-tools",
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", path.join(process.cwd(), "tests/fixtures/mcp-servers/many-tools.ts"), "130"],
  cwd: process.cwd(),
};
const LAST = "many-tools__item_130";

removeServerAfterAll(server.name);

test("the Tools page searches on the server, loads the next page on request and keeps its filters in the URL", async ({
  page,
  api,
}) => {
  expect((await api.post("/api/v1/servers", { data: server })).status()).toBe(201);
  await waitUntilReady(api, server.name);
  await expect
    .poll(
      async () =>
        ((await (await api.get("/api/v1/tools?server=many-tools&limit=1")).json()) as { total: number })
          .total,
    )
    .toBe(130);

  // The first page holds 100 tools; the last of many-tools comes after more than 100 others.
  await page.goto("/tools");
  const status = page.getByRole("status").filter({ hasText: /^Showing|^Searching/ });
  await expect(status).toHaveText(/^Showing 100 of \d+ tools$/);
  await expect(page.getByTestId(`tool-${LAST}`)).toHaveCount(0);

  // Found by its description, which only the server can search: the request says so.
  const searched = page.waitForRequest((request) => new URL(request.url()).searchParams.get("q") === "zebra");
  await page.getByRole("searchbox", { name: "Search tools" }).fill("zebra");
  await searched;
  await expect(page.getByTestId(`tool-${LAST}`)).toBeVisible();
  await expect(status).toHaveText("Showing 1 of 1 matching tool");
  await expect(page).toHaveURL(/[?&]q=zebra/);

  // A reload renders the same search from the URL, on the server.
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search tools" })).toHaveValue("zebra");
  await expect(page.getByTestId(`tool-${LAST}`)).toBeVisible();

  // Nothing matches: said so, with a way back.
  await page.getByRole("searchbox", { name: "Search tools" }).fill("no tool is called this");
  await expect(page.getByRole("heading", { name: "No tool matches these filters" })).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).last().click();
  await expect(page.getByRole("searchbox", { name: "Search tools" })).toHaveValue("");
  await expect(status).toHaveText(/^Showing 100 of \d+ tools$/);
  await expect(page).not.toHaveURL(/[?&]q=/);

  // One server, unclassified (registered after first run, nothing is classified): 130 match.
  // Scoped to the filters: every row has an Effect select of its own.
  const filters = page.getByRole("group", { name: "Filter tools" });
  await filters.getByRole("combobox", { name: "Server" }).selectOption(server.name);
  await filters.getByRole("combobox", { name: "Effect" }).selectOption("unclassified");
  await expect(page).toHaveURL(/server=many-tools/);
  await expect(page).toHaveURL(/effect=unclassified/);
  await expect(status).toHaveText("Showing 100 of 130 matching tools");
  await page.screenshot({ path: "test-results/tools-paging-filters.png" });
  await expect(page.getByTestId("tool-many-tools__item_100")).toBeVisible();
  await expect(page.getByTestId(`tool-${LAST}`)).toHaveCount(0);

  // The next page, from the keyboard; then there is no more to load.
  const loadMore = page.getByRole("button", { name: "Load 30 more" });
  await loadMore.focus();
  await page.keyboard.press("Enter");
  await expect(status).toHaveText("Showing 130 of 130 matching tools");
  await expect(page.getByTestId(`tool-${LAST}`)).toBeVisible();
  await expect(page.locator('[data-testid^="tool-many-tools__"]')).toHaveCount(130);
  await expect(page.getByRole("button", { name: /^Load \d+ more$/ })).toHaveCount(0);
  await page.screenshot({ path: "test-results/tools-paging.png" });
});
