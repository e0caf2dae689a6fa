import { expect, test } from "./fixtures";
import { expectTableCellsWhole } from "./layout";
import { ServersPage } from "./servers-page";

test.describe("servers", () => {
  test("a new install lists the demo servers", async ({ page }) => {
    const servers = new ServersPage(page);
    await servers.goto();
    await expect(servers.row("local-tools")).toContainText("Local tools");
    await expect(servers.row("local-tools")).toContainText("demo-servers/local-tools.ts");
    await expect(servers.row("files")).toContainText("Files (read-only)");

    // Headings, badges and the row's actions whole, not cut off at the table's edge (1280 px).
    await expectTableCellsWhole(page);
  });

  test("Check all probes every enabled server in one go and says how many are healthy", async ({
    page,
    api,
  }) => {
    const { servers: registered } = await (await api.get("/api/v1/servers")).json();
    const enabled = registered.filter((s: { enabled: boolean }) => s.enabled).length;
    expect(enabled).toBeGreaterThan(0);
    const servers = new ServersPage(page);
    await servers.goto();
    await page.getByRole("button", { name: "Check all" }).click();
    await expect(page.getByTestId("check-all-outcome")).toHaveText(
      new RegExp(`^(All ${enabled} healthy|\\d+ of ${enabled} healthy · unhealthy: .+)$`),
      { timeout: 30_000 },
    );
    await expect(page.getByRole("button", { name: "Check all" })).toBeEnabled();
  });

  test("bad input shows field errors beside the fields and saves nothing", async ({ page, api }) => {
    const servers = new ServersPage(page);
    await servers.goto();
    await servers.openAddForm();
    await servers.field("Name").fill("Not A Slug");
    await servers.submit("Add server");

    await expect(page.getByRole("form").getByRole("alert")).toContainText(
      "Check the 2 highlighted fields below.",
    );
    // Each error is shown beside its field and announced as that field's description.
    await expect(servers.field("Name")).toHaveAccessibleDescription(/lowercase letters, digits and dashes/);
    await expect(servers.field("Command")).toHaveAccessibleDescription(/needs a command/);
    await expect(servers.field("Name")).toHaveAttribute("aria-invalid", "true");

    await servers.chooseTransport("Streamable HTTP");
    await servers.field("Name").fill("remote-docs");
    await servers.field("URL").fill("ftp://docs.example.com");
    await servers.submit("Add server");
    await expect(servers.field("URL")).toHaveAccessibleDescription(/http:\/\/ or https:\/\//);
    await expect(servers.field("Name")).not.toHaveAttribute("aria-invalid", "true");

    const list = await (await api.get("/api/v1/servers")).json();
    expect(list.servers.map((s: { name: string }) => s.name)).not.toContain("remote-docs");
  });

  test("register a server through the form, edit it, then delete it", async ({ page }) => {
    const servers = new ServersPage(page);
    await servers.goto();
    await servers.openAddForm();

    await servers.field("Name").fill("everything");
    await servers.field("Display name").fill("Everything server");
    await servers.field("Command").fill("npx");
    await servers.field("Arguments").fill("-y\n@modelcontextprotocol/server-everything");
    await page.getByRole("button", { name: "+ Add" }).click();
    await page.getByLabel("Environment 1 name").fill("API_TOKEN");
    await page.getByLabel("Environment 1 kind").selectOption("secret");
    await page.getByLabel("Environment 1 value").fill("everything-token");
    await servers.submit("Add server");

    await expect(page).toHaveURL(/\/servers$/);
    const row = servers.row("everything");
    await expect(row).toContainText("Everything server");
    await expect(row).toContainText("npx -y @modelcontextprotocol/server-everything");
    await expect(row).toContainText("On");

    // Edit: switch to Streamable HTTP and disable it.
    await row.getByRole("link", { name: "Edit everything" }).click();
    await expect(page.getByRole("heading", { name: "Edit Everything server" })).toBeVisible();
    await expect(page.getByLabel("Environment 1 value")).toHaveValue("everything-token");
    await servers.chooseTransport("Streamable HTTP");
    await servers.field("URL").fill("http://127.0.0.1:3999/mcp");
    await page.getByLabel("Enabled — Switchboard connects to it").uncheck();
    await servers.submit("Save changes");

    await expect(page).toHaveURL(/\/servers$/);
    await expect(row).toContainText("Streamable HTTP");
    await expect(row).toContainText("http://127.0.0.1:3999/mcp");
    await expect(row).toContainText("Off");
    await expect(row).toContainText("Disabled");
    // The longest transport badge stays inside its column.
    await expectTableCellsWhole(page);

    // Delete: cancel first (nothing happens), then confirm.
    await row.getByRole("button", { name: "Delete everything" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete everything?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();

    await row.getByRole("button", { name: "Delete everything" }).click();
    await dialog.getByRole("button", { name: "Delete server" }).click();
    await expect(row).toHaveCount(0);
    await page.reload();
    await expect(servers.row("everything")).toHaveCount(0);
    await expect(servers.row("local-tools")).toBeVisible();
  });
});
