import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Locator, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import {
  type OAuthProtectedServer,
  startOAuthProtectedServer,
} from "../fixtures/mcp-servers/oauth-protected-server";
import { expect, test } from "./fixtures";
import { ServersPage } from "./servers-page";

/*
 * #17 as an admin meets it in Chromium: an MCP server behind a real OAuth authorization server
 * (oidc-provider, with its own login and consent pages, run in this worker) is registered through
 * the form, waits for authorization, is connected by clicking Connect and signing in on the
 * authorization server's pages, and then answers tool calls through the gateway as the person who
 * signed in. Its 4-second access tokens are renewed without anyone; a grant revoked at the server
 * brings the banner back and Connect recovers; the callback refuses forged and replayed states;
 * Disconnect revokes. The tests run in order and share the server.
 */

test.describe.configure({ mode: "serial" });

const SERVER = `oauth-e2e-${Math.random().toString(36).slice(2, 8)}`;
const WHOAMI = `${SERVER}__whoami`;
const LOGIN = "alice";
const SHOTS = "/tmp/oauth-shots";

type Tool = { id: string; gatewayName: string; effect: string | null };

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

async function adminApi(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined) {
  return playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
}

/** Waits until React has hydrated what a redirect (not page.goto) loaded: a click before is lost. */
async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Navigates without the fixtures' hydration wait (pages that are not the app's, like the refusal). */
async function navigate(page: Page, url: string) {
  const answered = page.waitForResponse((response) => response.url() === url);
  await page.evaluate((href) => {
    window.location.href = href;
  }, url);
  return answered;
}

async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      help: v.help,
      elements: v.nodes.map((node) => `${node.target.join(" ")}: ${node.html}`),
    }));
  expect(found, `axe on ${what}`).toEqual([]);
}

test.describe("an OAuth-protected MCP server", () => {
  let upstream: OAuthProtectedServer;
  let principalId = "";
  let client: Client | undefined;
  let gatewayKey = "";
  let gatewayUrl: URL;
  /** A real callback URL (code and state) captured during a Connect, replayed in the refusal test. */
  let usedCallback = "";

  const panel = (page: Page) => page.getByTestId("server-authorization");
  const banner = (page: Page) => page.getByTestId("server-needs-authorization");

  /** The gateway client, connected on first use (the agent's key is made in beforeAll). */
  async function gateway(): Promise<Client> {
    if (client) return client;
    client = new Client({ name: "oauth-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(gatewayUrl, {
        requestInit: { headers: { Authorization: `Bearer ${gatewayKey}` } },
      }),
    );
    return client;
  }

  async function whoami(): Promise<CallToolResult> {
    return (await (await gateway()).callTool({ name: WHOAMI, arguments: {} })) as CallToolResult;
  }

  /**
   * Clicks the page's Connect (or Reconnect) and walks the authorization server's own pages: its
   * login form when it does not know this browser (each test has a fresh one), then its consent
   * page. Says whether it asked to log in, and the callback URL the browser was sent back to.
   */
  async function connectInBrowser(page: Page, button: Locator): Promise<{ loggedIn: boolean; back: string }> {
    const callback = page.waitForRequest((request) => request.url().includes("/oauth/callback?"));
    await hydrated(page);
    await button.click();
    await page.waitForURL((url) => url.href.startsWith(`${upstream.issuer}/interaction/`));
    const login = page.getByPlaceholder("Enter any login");
    const consent = page.getByRole("button", { name: "Continue" });
    await expect(login.or(consent)).toBeVisible();
    const loggedIn = await login.isVisible();
    if (loggedIn) {
      await login.fill(LOGIN);
      await page.getByPlaceholder("and password").fill("any password at all");
      await page.getByRole("button", { name: "Sign-in" }).click();
    }
    await consent.click();
    const back = (await callback).url();
    await page.waitForURL(new RegExp(`/servers/${SERVER}\\?oauth=connected$`));
    return { loggedIn, back };
  }

  test.beforeAll(async ({ playwright, baseURL }) => {
    mkdirSync(SHOTS, { recursive: true });
    upstream = await startOAuthProtectedServer({ accessTokenTtlSeconds: 4 });
    gatewayUrl = new URL("/mcp", baseURL);
    const api = await adminApi(playwright, baseURL);
    const created = await api.post("/api/v1/principals", { data: { name: `${SERVER}-agent` } });
    expect(created.status(), await created.text()).toBe(201);
    principalId = ((await created.json()) as { principal: { id: string } }).principal.id;
    const granted = await api.put(`/api/v1/principals/${principalId}/grants`, {
      data: { patterns: [`${SERVER}__*`] },
    });
    expect(granted.status(), await granted.text()).toBe(200);
    const key = await api.post(`/api/v1/principals/${principalId}/keys`, { data: { name: "e2e" } });
    expect(key.status(), await key.text()).toBe(201);
    gatewayKey = ((await key.json()) as { key: string }).key;
    await api.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    await client?.close();
    const api = await adminApi(playwright, baseURL);
    if (principalId) await api.delete(`/api/v1/principals/${principalId}`);
    await api.delete(`/api/v1/servers/${SERVER}`);
    await api.dispose();
    await upstream?.close();
  });

  test.beforeEach(async ({ context }) => {
    // The authorization server's dev pages import a web font; this machine has no Internet.
    await context.route(/fonts\.googleapis\.com/, (route) => route.abort());
  });

  test("registered through the form with OAuth, it waits for authorization and calls fail fast", async ({
    page,
    api,
  }) => {
    const servers = new ServersPage(page);
    await servers.goto();
    await servers.openAddForm();
    await servers.field("Name").fill(SERVER);
    await servers.chooseTransport("Streamable HTTP");
    await servers.field("URL").fill(upstream.mcpUrl);
    await page.getByLabel("Authentication").selectOption("oauth");
    await servers.submit("Add server");

    // An OAuth server is not usable until someone connects it: the form lands on its page.
    await expect(page).toHaveURL(new RegExp(`/servers/${SERVER}$`));
    await expect(page.getByTestId("server-status")).toContainText("Needs authorization", { timeout: 30_000 });
    await expect(banner(page)).toContainText("Needs authorization");
    await expect(banner(page).getByRole("button", { name: "Connect", exact: true })).toBeVisible();
    await expect(panel(page)).toContainText("Not connected");
    await expect(panel(page)).toContainText("Switchboard has not signed in to this server yet.");
    // One Connect on the page: the banner's (the panel does not repeat it).
    await expect(page.getByRole("button", { name: "Connect", exact: true })).toHaveCount(1);
    await page.screenshot({ path: `${SHOTS}/server-needs-authorization.png`, fullPage: true });
    await expectNoSeriousViolations(page, "the server page, needs authorization");

    // Nothing was asked of the MCP server for the pool's sake: it had no token to send.
    expect(upstream.counts().mcpRequests).toBe(0);
    // Asking it for its tools fails at once, saying what to do.
    const started = Date.now();
    const refresh = await api.post(`/api/v1/servers/${SERVER}/refresh`);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(refresh.ok()).toBe(false);
    expect(await refresh.text()).toMatch(/needs authorization.*Connect/);
    // Through the gateway: its tools are not known before the first sign-in, so a call is refused.
    const refused = await whoami();
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(WHOAMI);
  });

  test("Connect → the authorization server's login and consent → connected, Ready, and tools answer as alice", async ({
    page,
    api,
  }) => {
    await page.goto(`/servers/${SERVER}`);
    const { loggedIn } = await connectInBrowser(
      page,
      banner(page).getByRole("button", { name: "Connect", exact: true }),
    );
    expect(loggedIn).toBe(true);

    await expect(page.getByTestId("oauth-outcome")).toContainText("Connected: Switchboard signed in");
    await expect(panel(page).getByText("Connected", { exact: true })).toBeVisible();
    await expect(panel(page)).toContainText("Dynamic registration");
    await expect(panel(page)).toContainText(upstream.issuer);
    await expect(panel(page).getByRole("list", { name: "Granted scopes" })).toContainText("mcp:tools");
    await expect(panel(page)).toContainText("renews automatically");
    await expect(panel(page)).toContainText(/Signed in.*by Ada Admin/);
    // Signing in again is the panel's; the header's Reconnect only reopens the connection.
    await expect(panel(page).getByRole("button", { name: "Sign in again" })).toBeVisible();
    await expect(page.getByTestId("server-status")).toContainText("Ready", { timeout: 30_000 });
    await expect(banner(page)).toHaveCount(0);
    expect(upstream.counts().registrations).toBe(1);
    expect(upstream.counts().authorizationCode).toBe(1);
    await page.screenshot({ path: `${SHOTS}/server-connected.png`, fullPage: true });
    await expectNoSeriousViolations(page, "the server page, connected");

    // whoami is unclassified (enforced as external-write, held for approval): an admin calls it read.
    let tool: Tool | undefined;
    await expect
      .poll(
        async () => {
          const body = (await (await api.get(`/api/v1/tools?q=${WHOAMI}`)).json()) as { tools: Tool[] };
          tool = body.tools.find((candidate) => candidate.gatewayName === WHOAMI);
          return tool;
        },
        { timeout: 30_000 },
      )
      .toBeTruthy();
    const classified = await api.patch(`/api/v1/tools/${tool?.id}`, { data: { effect: "read" } });
    expect(classified.ok(), await classified.text()).toBe(true);

    const answer = await whoami();
    expect(answer.isError, text(answer)).toBeFalsy();
    expect(JSON.parse(text(answer))).toMatchObject({ subject: LOGIN, scopes: ["mcp:tools"] });
  });

  test("a 4-second access token is renewed in time: calls keep working without anyone", async () => {
    const refreshes = upstream.counts().refreshToken;
    const until = Date.now() + 10_000; // two and a half lifetimes
    while (Date.now() < until) {
      const answer = await whoami();
      expect(answer.isError, text(answer)).toBeFalsy();
      expect(text(answer)).toContain(LOGIN);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    expect(upstream.counts().refreshToken).toBeGreaterThan(refreshes);
  });

  test("a grant revoked at the server: the call fails, the banners say so, Connect recovers", async ({
    page,
  }) => {
    await page.goto(`/servers/${SERVER}`);
    await expect(page.getByTestId("server-status")).toContainText("Ready");
    await upstream.revokeAll();

    const failed = await whoami();
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/needs authorization/);
    // The open page follows without a reload.
    await expect(banner(page)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("server-status")).toContainText("Needs authorization");
    await expect(panel(page)).toContainText("Needs authorization");
    await expect(page.getByTestId("server-authorization-problem")).toContainText("Renewing the token failed");
    // The refused tokens were dropped: not shown as a token without an expiry.
    await expect(panel(page)).toContainText(/Access token\s*none usable/);
    await page.screenshot({ path: `${SHOTS}/server-grant-revoked.png`, fullPage: true });

    await page.goto("/");
    const overview = page.getByTestId("overview-needs-authorization");
    await expect(overview).toContainText("A server needs authorization");
    await expect(overview.getByRole("link", { name: SERVER })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/overview-banner.png`, fullPage: true });
    await overview.getByRole("link", { name: SERVER }).click();
    await expect(page).toHaveURL(new RegExp(`/servers/${SERVER}$`));

    // The grant is gone, so the authorization server asks for consent again.
    usedCallback = (await connectInBrowser(page, banner(page).getByRole("button", { name: "Sign in again" })))
      .back;
    await expect(page.getByTestId("oauth-outcome")).toContainText("Connected");
    await expect(page.getByTestId("server-status")).toContainText("Ready", { timeout: 30_000 });
    await expect(banner(page)).toHaveCount(0);
    await expect(page.getByTestId("server-authorization-problem")).toHaveCount(0);
    const answer = await whoami();
    expect(answer.isError, text(answer)).toBeFalsy();
    expect(text(answer)).toContain(LOGIN);

    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await expect(page.getByTestId("overview-needs-authorization")).toHaveCount(0);
  });

  test("the callback refuses a forged state and a replayed one, and nothing changes", async ({
    page,
    baseURL,
  }) => {
    const codes = upstream.counts().authorizationCode;
    await page.goto(`/servers/${SERVER}`);
    await expect(panel(page).getByText("Connected", { exact: true })).toBeVisible();

    const forged = await navigate(page, new URL("/oauth/callback?state=forged&code=x", baseURL).href);
    expect(forged.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "Authorization not completed" })).toBeVisible();
    await expect(page.getByText("Nothing was changed.")).toBeVisible();

    expect(usedCallback).toContain("code=");
    const replayed = await navigate(page, usedCallback);
    expect(replayed.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "Authorization not completed" })).toBeVisible();
    await expect(page.locator("body")).toContainText("already used");

    await page.goto(`/servers/${SERVER}`);
    await expect(panel(page).getByText("Connected", { exact: true })).toBeVisible();
    await expect(page.getByTestId("server-authorization-problem")).toHaveCount(0);
    await expect(page.getByTestId("server-status")).toContainText("Ready");
    // The replayed code never reached the authorization server again.
    expect(upstream.counts().authorizationCode).toBe(codes);
  });

  test("Disconnect asks first, revokes at the server, and leaves it not connected", async ({ page }) => {
    const revocations = upstream.counts().revocations;
    await page.goto(`/servers/${SERVER}`);
    await panel(page).getByRole("button", { name: "Disconnect" }).click();
    const dialog = page.getByRole("dialog", { name: `Disconnect ${SERVER}?` });
    await expect(dialog).toContainText("deletes its tokens");
    await dialog.getByRole("button", { name: "Disconnect" }).click();
    await expect(dialog).toBeHidden();

    await expect(panel(page)).toContainText("Not connected");
    await expect(panel(page)).toContainText("Switchboard holds no token for this server.");
    await expect(panel(page)).toContainText(/Signed in\s*—/);
    await expect(panel(page).getByRole("button", { name: "Disconnect" })).toHaveCount(0);
    await expect(banner(page).getByRole("button", { name: "Connect", exact: true })).toBeVisible();
    await expect(page.getByTestId("server-status")).toContainText("Needs authorization");
    expect(upstream.counts().revocations).toBeGreaterThan(revocations);
    await page.screenshot({ path: `${SHOTS}/server-disconnected.png`, fullPage: true });
    const after = await whoami();
    expect(after.isError).toBe(true);
    expect(text(after)).toMatch(/needs authorization/);
  });
});
