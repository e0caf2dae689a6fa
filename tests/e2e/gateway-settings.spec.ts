import type { APIRequestContext, APIResponse, PlaywrightWorkerArgs } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { initializeRequest } from "../fixtures/mcp-messages";
import { expect, test } from "./fixtures";
import { openNewWorkspaceDialog } from "./shell";

/**
 * Settings → Gateway against `next start` on 127.0.0.1 (so Switchboard listens on loopback only
 * and the mapping can apply): the card shows the gateway's state and URLs, and an admin maps
 * requests without a key to a principal and back off — which /mcp follows at once.
 *
 * The mapping is installation-wide for requests without a key, so while it is on, any other spec
 * sending an anonymous /mcp request would be let in. playwright.config.ts runs one worker with
 * files in sequence; this file is serial too, and turns the mapping off again even when it fails.
 */

test.describe.configure({ mode: "serial" });

const initialize = initializeRequest("client-without-headers");

/** REST as the bootstrap admin key, for set-up and clean-up (the `api` fixture is per test). */
async function adminApi(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined) {
  return playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
}

/** An MCP initialize with no key at all, as a client that cannot send headers would. */
async function anonymousInitialize(baseURL: string | undefined, api: APIRequestContext) {
  return api.post(new URL("/mcp", baseURL).toString(), {
    headers: { Accept: "application/json, text/event-stream" },
    data: initialize,
  });
}

/** serverInfo.name of an initialize answer, whether it came as plain JSON or as an event stream. */
async function serverName(response: APIResponse): Promise<string> {
  const text = await response.text();
  const json = (response.headers()["content-type"] ?? "").includes("text/event-stream")
    ? (text.split("\n").find((line) => /^data:\s*\S/.test(line)) ?? "").slice("data:".length)
    : text;
  return (JSON.parse(json) as { result: { serverInfo: { name: string } } }).result.serverInfo.name;
}

test.describe("Settings → Gateway", () => {
  const principalName = `loopback-e2e-${Math.random().toString(36).slice(2, 8)}`;
  let principalId = "";

  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await adminApi(playwright, baseURL);
    const created = await api.post("/api/v1/principals", { data: { name: principalName } });
    expect(created.status()).toBe(201);
    principalId = ((await created.json()) as { principal: { id: string } }).principal.id;
    await api.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    const api = await adminApi(playwright, baseURL);
    const off = await api.put("/api/v1/settings/gateway", { data: { loopbackPrincipalId: null } });
    expect(off.status()).toBe(200);
    if (principalId) await api.delete(`/api/v1/principals/${principalId}`);
    await api.dispose();
  });

  test("an admin maps requests without a key to a principal, and turns it off again", async ({
    page,
    playwright,
    baseURL,
  }) => {
    // A context with no credentials of any kind (no key, no cookie).
    const anonymous = await playwright.request.newContext();
    try {
      const refused = await anonymousInitialize(baseURL, anonymous);
      expect(refused.status()).toBe(401);
      expect(refused.headers()["www-authenticate"]).toMatch(/^Bearer/);

      await page.goto("/settings");
      await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Gateway" }).click();
      await expect(page).toHaveURL(/\/settings\/gateway$/);
      await expect(page.getByTestId("gateway-enabled")).toHaveText("On");
      const origin = new URL(baseURL ?? "").origin;
      await expect(page.getByRole("textbox", { name: "Gateway URL", exact: true })).toHaveValue(
        `${origin}/mcp`,
      );
      await expect(page.getByTestId("gateway-server-url")).toHaveText(`${origin}/mcp/servers/<name>`);
      await expect(page.getByTestId("gateway-approval-wait")).toContainText("50 seconds");
      await expect(page.getByRole("textbox", { name: "Claude Code command", exact: true })).toHaveValue(
        `claude mcp add --transport http switchboard ${origin}/mcp --header "Authorization: Bearer <key>"`,
      );
      const state = page.getByTestId("loopback-mapping-state");
      await expect(state).toContainText("Off");
      await expect(state).toContainText("Every gateway request needs a principal's key.");

      // Turn it on for the principal.
      await page.getByLabel("Act as", { exact: true }).selectOption({ label: principalName });
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(state).toContainText(`Every local process can call as ${principalName} without a key.`);
      await expect(
        page.getByText(`Saved. Requests without a key now act as ${principalName}.`),
      ).toBeVisible();
      await page.reload();
      await expect(page.getByTestId("loopback-mapping-state")).toContainText(
        `Every local process can call as ${principalName} without a key.`,
      );
      await expect(page.getByLabel("Act as", { exact: true })).toHaveValue(principalId);

      const mapped = await anonymousInitialize(baseURL, anonymous);
      expect(mapped.status()).toBe(200);
      expect(await serverName(mapped)).toBe("switchboard");

      // And off again, from the keyboard.
      await page.getByRole("button", { name: "Turn off" }).focus();
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("loopback-mapping-state")).toContainText(
        "Every gateway request needs a principal's key.",
      );
      await expect(page.getByRole("button", { name: "Turn off" })).toHaveCount(0);
      await expect(page.getByLabel("Act as", { exact: true })).toHaveValue("");
      expect((await anonymousInitialize(baseURL, anonymous)).status()).toBe(401);
    } finally {
      await anonymous.dispose();
    }
  });

  test("shows the discovery URL, its Claude Code line, and each principal's tools/list size in both modes", async ({
    page,
    api,
    baseURL,
  }) => {
    expect(
      (
        await api.put(`/api/v1/principals/${principalId}/grants`, {
          data: { patterns: ["local-tools__echo"] },
        })
      ).ok(),
    ).toBe(true);
    const origin = new URL(baseURL ?? "").origin;
    await page.goto("/settings/gateway");
    await expect(page.getByRole("textbox", { name: "Discovery URL", exact: true })).toHaveValue(
      `${origin}/mcp/discover`,
    );
    await expect(
      page.getByRole("textbox", { name: "Claude Code command, discovery mode", exact: true }),
    ).toHaveValue(
      `claude mcp add --transport http switchboard ${origin}/mcp/discover --header "Authorization: Bearer <key>"`,
    );
    // The figures are the REST answer's, which the integration tests hold to the bytes /mcp serves.
    const { toolLists } = (await (await api.get("/api/v1/settings/gateway")).json()) as {
      toolLists: { discoverBytes: number; principals: { name: string; tools: number; fullBytes: number }[] };
    };
    const measured = toolLists.principals.find((p) => p.name === principalName);
    expect(measured?.tools).toBe(1);
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    const row = page.getByTestId("tool-list-sizes").getByRole("row").filter({ hasText: principalName });
    await expect(row.getByRole("cell")).toHaveText([
      principalName,
      "1 tool",
      kib(measured?.fullBytes ?? 0),
      kib(toolLists.discoverBytes),
    ]);
    await page.getByRole("heading", { name: "tools/list size by mode" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("gateway-modes.png"), fullPage: true });
  });

  test("a workspace without principals, while another holds the mapping, is told so and offered nothing", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const api = await adminApi(playwright, baseURL);
    try {
      // The default workspace holds the mapping.
      const on = await api.put("/api/v1/settings/gateway", { data: { loopbackPrincipalId: principalId } });
      expect(on.status()).toBe(200);

      // A new workspace has no principals, and could not take the mapping if it had some.
      await page.goto("/");
      const dialog = await openNewWorkspaceDialog(page);
      const name = `Held elsewhere ${principalName}`;
      await dialog.getByRole("textbox", { name: "Name" }).fill(name);
      await dialog.getByRole("button", { name: "Create workspace" }).click();
      // The overview was already showing: wait for the new workspace's, or the next page may
      // load while the switch is still on its way (and show the default workspace).
      await expect(page.getByText(`${name}: your MCP servers at a glance.`)).toBeVisible();
      await page.goto("/settings/gateway");
      await expect(page.getByTestId("loopback-mapping-state")).toContainText(
        "Every gateway request needs a principal's key.",
      );
      await expect(page.getByText("Held by another workspace")).toBeVisible();
      // No step that could not lead anywhere: neither "create a principal first" nor a form.
      await expect(page.getByText("No principals yet")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Go to Principals" })).toHaveCount(0);
      await expect(page.getByLabel("Act as", { exact: true })).toHaveCount(0);
    } finally {
      // The workspace chosen lives in this test's browser context only; the mapping is shared.
      await api.put("/api/v1/settings/gateway", { data: { loopbackPrincipalId: null } });
      await api.dispose();
    }
  });

  test("an admin changes the gateway name budget, sees it saved, and is told plainly about a bad one", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const api = await adminApi(playwright, baseURL);
    try {
      await page.goto("/settings/gateway");
      const card = page.getByRole("region", { name: "Tool name length" });
      await expect(card).toContainText("mcp__switchboard__");
      const budget = card.getByLabel("Longest gateway name (characters)");
      await expect(budget).toHaveValue("46");

      // Out of range: the field says what is allowed, nothing is saved.
      await budget.fill("70");
      await card.getByRole("button", { name: "Save budget", exact: true }).click();
      await expect(card.getByText(/whole number from 32 to 64/)).toBeVisible();
      await expect(budget).toHaveAttribute("aria-invalid", "true");

      await budget.fill("40");
      await budget.press("Enter");
      await expect(
        card.getByText("Saved. Gateway names are now at most 40 characters", { exact: false }),
      ).toBeVisible();
      await card.screenshot({ path: "test-results/gateway-name-budget.png" });
      await page.reload();
      await expect(
        page.getByRole("region", { name: "Tool name length" }).getByLabel(/Longest gateway name/),
      ).toHaveValue("40");
      const read = await api.get("/api/v1/settings/gateway");
      expect(
        ((await read.json()) as { settings: { gatewayNameBudget: number } }).settings.gatewayNameBudget,
      ).toBe(40);
    } finally {
      const restored = await api.put("/api/v1/settings/gateway/name-budget", {
        data: { gatewayNameBudget: 46 },
      });
      expect(restored.status()).toBe(200);
      await api.dispose();
    }
  });

  test("the REST API reads the same setting, off again, and refuses an unknown principal", async ({
    api,
  }) => {
    const read = await api.get("/api/v1/settings/gateway");
    expect(read.status()).toBe(200);
    const body = (await read.json()) as { settings: { loopbackPrincipal: unknown; canMapLoopback: boolean } };
    expect(body.settings).toMatchObject({ loopbackPrincipal: null, canMapLoopback: true });
    const unknown = await api.put("/api/v1/settings/gateway", {
      data: { loopbackPrincipalId: "no-such-id" },
    });
    expect(unknown.status()).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /no principal with that id/,
    );
  });
});
