import { expect, test } from "./fixtures";

// A third-party server from npm, run the way an operator would register it.
const everything = {
  name: "everything-npm",
  displayName: "Everything (npm)",
  transport: "stdio",
  command: "npx",
  // What client configurations run; the package is a dev dependency, so npx finds it installed.
  args: ["-y", "@modelcontextprotocol/server-everything", "stdio"],
  cwd: process.cwd(),
};

test("the demo servers connect and show Ready in the list", async ({ page }) => {
  await page.goto("/servers");
  for (const name of ["local-tools", "files"]) {
    await expect(page.getByTestId(`server-row-${name}`).getByText("Ready")).toBeVisible({ timeout: 30_000 });
  }
});

test("server-everything's detail page: live status, full catalog, health check and diagnostics", async ({
  page,
  api,
}) => {
  expect((await api.post("/api/v1/servers", { data: everything })).status()).toBe(201);
  await page.goto("/servers");
  await page.getByTestId("server-row-everything-npm").getByRole("link", { name: "Everything (npm)" }).click();
  await expect(page).toHaveURL(/\/servers\/everything-npm$/);
  await expect(page.getByTestId("server-status")).toContainText("Ready", { timeout: 30_000 });

  // 17: server-everything also lists its sampling, elicitation and roots tools, since the pool
  // declares those capabilities (the gateway relays them to its clients).
  const tools = page.getByRole("tab", { name: /Tools/ });
  await expect(tools).toContainText("17");
  await expect(page.getByTestId("tool-get-sum")).toContainText("everything-npm__get-sum");
  await page.getByTestId("tool-get-sum").getByText("everything-npm__get-sum").click();
  const schema = page.getByTestId("tool-get-sum").getByRole("table");
  await expect(schema.getByRole("row", { name: /^a number required/ })).toBeVisible();
  await expect(schema.getByRole("row", { name: /^b number required/ })).toBeVisible();

  // Tabs work from the keyboard and land in the URL.
  await tools.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Resources" })).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/tab=resources/);
  await expect(page.getByRole("tabpanel")).toContainText("demo://resource/static/document/");

  await page.getByRole("tab", { name: "Prompts" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("simple-prompt");

  await page.getByRole("button", { name: "Health check" }).click();
  await expect(page.getByTestId("operation-outcomes")).toContainText(/Healthy · \d+ ms/);
  await page.getByRole("tab", { name: "Health" }).click();
  await expect(page.getByRole("tabpanel").getByRole("row")).not.toHaveCount(0);

  await page.getByRole("tab", { name: "Diagnostics" }).click();
  await expect(page.getByRole("tabpanel")).toContainText(
    "npx -y @modelcontextprotocol/server-everything stdio",
  );
  // The one replica, named (host:port); no per-replica table or "ready on" with one replica.
  await expect(page.getByRole("tabpanel")).toContainText(/Answered by\s*replica \S+:\d+/);
  await expect(page.getByTestId("server-replicas")).toHaveCount(0);
  await expect(page.getByTestId("server-replica-split")).toHaveCount(0);

  await page.getByRole("tab", { name: "Snapshots" }).click();
  await expect(page.getByTestId("snapshot").first()).toContainText("17");
});
