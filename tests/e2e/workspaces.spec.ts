import { expect, test } from "./fixtures";
import { ServersPage } from "./servers-page";
import { openNewWorkspaceDialog, switchWorkspace, workspaceMenuButton } from "./shell";

test("a new workspace starts empty, and its servers stay in it", async ({ page }) => {
  const servers = new ServersPage(page);
  await page.goto("/");
  const dialog = await openNewWorkspaceDialog(page);
  await expect(dialog.getByRole("textbox", { name: "Name" })).toBeFocused();
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(dialog.getByRole("textbox", { name: "Name" })).toHaveAccessibleDescription(
    /Give the workspace a name/,
  );
  await dialog.getByRole("textbox", { name: "Name" }).fill("Beta team");
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(workspaceMenuButton(page)).toHaveAccessibleName("Workspace Beta team");
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
  await switchWorkspace(page, "Default workspace");
  await expect(page.getByText("Default workspace: your MCP servers at a glance.")).toBeVisible();
  await servers.goto();
  await expect(servers.row("local-tools")).toBeVisible();
  await expect(servers.row("beta-only")).toHaveCount(0);
  const response = await page.goto("/servers/beta-only/edit");
  expect(response?.status()).toBe(404);
});

test("the workspace menu works from the keyboard, and moving through it switches nothing", async ({
  page,
}) => {
  await page.goto("/settings/members");
  const button = workspaceMenuButton(page);
  const current = (await button.textContent())?.trim() ?? "";
  await button.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitemradio", { checked: true })).toHaveAccessibleName(
    new RegExp(`^${current}`),
  );
  // Arrowing over every workspace and the "new" item only moves the highlight (WCAG 3.2.2).
  const items = await menu.getByRole("menuitemradio").count();
  for (let i = 0; i <= items; i++) await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(/\/settings\/members$/);
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAccessibleName(`Workspace ${current}`);

  // Enter on "+ New workspace…" opens the dialog, with the focus in it; Escape closes it.
  await page.keyboard.press("ArrowDown");
  await expect(menu).toBeVisible();
  await page.keyboard.press("End");
  await expect(menu.getByRole("menuitem", { name: "+ New workspace…" })).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "New workspace" });
  await expect(dialog.getByRole("textbox", { name: "Name" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/settings\/members$/);
});
