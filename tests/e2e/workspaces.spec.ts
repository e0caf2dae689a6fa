import { expect, test } from "./fixtures";
import { ServersPage } from "./servers-page";

test("a new workspace starts empty, and its servers stay in it", async ({ page }) => {
  const servers = new ServersPage(page);
  await page.goto("/");
  await page
    .getByRole("combobox", { name: "Workspace", exact: true })
    .selectOption({ label: "+ New workspace…" });
  const dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(dialog.getByRole("textbox", { name: "Name" })).toHaveAccessibleDescription(
    /Give the workspace a name/,
  );
  await dialog.getByRole("textbox", { name: "Name" }).fill("Beta team");
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByRole("combobox", { name: "Workspace", exact: true })).toHaveValue(/.+/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText("Beta team: your MCP servers at a glance.")).toBeVisible();

  // Its audit log starts with its creation, by its creator.
  await page.goto("/settings/audit");
  await expect(page.getByTestId("audit-workspace.created")).toContainText("Ada Admin");
  await expect(page.getByTestId("audit-workspace.created")).toContainText("Beta team");

  await servers.goto();
  await expect(page.getByText("No MCP servers yet")).toBeVisible();
  await servers.openAddForm();
  await servers.field("Name").fill("beta-only");
  await servers.field("Command").fill("node");
  // `node <file>`: what client configurations run, open to instance owners (the admin set it up).
  await servers.field("Arguments").fill("server.js");
  await servers.submit("Add server");
  await expect(servers.row("beta-only")).toBeVisible();

  // Back in the default workspace the Beta server does not exist, not even by URL.
  await page
    .getByRole("combobox", { name: "Workspace", exact: true })
    .selectOption({ label: "Default workspace" });
  await expect(page.getByText("Default workspace: your MCP servers at a glance.")).toBeVisible();
  await servers.goto();
  await expect(servers.row("local-tools")).toBeVisible();
  await expect(servers.row("beta-only")).toHaveCount(0);
  const response = await page.goto("/servers/beta-only/edit");
  expect(response?.status()).toBe(404);
});
