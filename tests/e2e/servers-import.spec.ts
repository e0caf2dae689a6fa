import path from "node:path";
import { expect, test } from "./fixtures";
import { ServersPage } from "./servers-page";

const CANARY = `canary-ui-import-${Date.now()}`;

test.describe("servers: import and export in the dashboard", () => {
  test("paste a Claude Desktop configuration, preview it, import it: the token becomes a secret", async ({
    page,
    api,
  }) => {
    const servers = new ServersPage(page);
    await servers.goto();
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Import servers" });
    await expect(dialog).toBeVisible();

    // Not JSON: one clear message with line and column, nothing saved.
    await dialog
      .getByLabel("Configuration")
      .fill('{\n  "mcpServers": {\n    "x": {"command": "node"},\n  ]\n}');
    await dialog.getByRole("button", { name: "Preview" }).click();
    await expect(dialog.getByRole("alert")).toContainText("line 4, column 3");

    const config = {
      mcpServers: {
        "UI Imported": {
          command: "node",
          args: ["--import", "tsx", path.join(process.cwd(), "demo-servers", "local-tools.ts")],
          env: { API_TOKEN: CANARY },
        },
      },
    };
    await dialog.getByLabel("Configuration").fill(JSON.stringify(config, null, 2));
    await dialog.getByRole("button", { name: "Preview" }).click();
    await expect(dialog.getByRole("status")).toContainText("Preview (Claude Desktop): 1 to create");
    const entry = dialog.getByTestId("import-entry-UI Imported");
    await expect(entry).toContainText("ui-imported");
    await expect(entry).toContainText("Will create");
    await expect(entry).toContainText("ui-imported-api-token");
    expect(
      (await (await api.get("/api/v1/servers")).json()).servers.map((s: { name: string }) => s.name),
    ).not.toContain("ui-imported");

    await dialog.getByRole("button", { name: "Import servers" }).click();
    await expect(dialog.getByRole("status")).toContainText("1 created");
    await expect(entry).toContainText("Created");
    expect(await page.content()).not.toContain(CANARY);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(servers.row("ui-imported")).toContainText("UI Imported");

    const server = (await (await api.get("/api/v1/servers/ui-imported")).json()).server;
    expect(server.env.API_TOKEN).toEqual({ secret: "ui-imported-api-token", isSet: true });
    await api.delete("/api/v1/servers/ui-imported");
  });

  test("export shows the gateway configuration for a client, with Claude Code permissions", async ({
    page,
  }) => {
    const servers = new ServersPage(page);
    await servers.goto();
    await page.getByRole("button", { name: "Claude Code" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect Claude Code to Switchboard" });
    await expect(dialog.getByRole("region", { name: ".mcp.json" })).toContainText(
      '"Authorization": "Bearer ${',
    );
    await expect(dialog.getByRole("region", { name: ".claude/settings.json" })).toContainText(
      '"permissions"',
    );
    await dialog.getByRole("button", { name: "Close" }).click();

    await page.getByRole("button", { name: "VS Code" }).click();
    const vscode = page.getByRole("dialog", { name: "Connect VS Code to Switchboard" });
    await expect(vscode.getByRole("region", { name: ".vscode/mcp.json" })).toContainText('"promptString"');
    await expect(vscode.getByRole("region", { name: ".claude/settings.json" })).toHaveCount(0);
  });
});
