import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { createAgent } from "./agents";
import { expect, signedOutContext, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * Every page, scanned with axe-core once its content is there: the dashboard's pages (each
 * settings tab, each tab of a server's page, a call's page, a principal's page) as the admin, and
 * the pages of someone signed out (sign-in, an invitation). A serious or critical violation fails
 * the page's test, naming the rule and the elements. First-run setup is not reachable here: the
 * setup project completed it before this file runs.
 */

type Target = { path: string; ready: (page: Page) => Promise<void> };

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
};

/** Filled in by beforeAll: a principal with a call, and an invitation link. */
const made = { principalId: "", principalName: "", callId: "", invitationPath: "", invitationId: "" };

const dashboardPages: Target[] = [
  { path: "/", ready: heading("Overview") },
  { path: "/servers", ready: heading("Servers") },
  { path: "/servers/new", ready: heading("Add server") },
  ...["tools", "resources", "prompts", "health", "diagnostics", "snapshots"].map((tab) => ({
    path: `/servers/local-tools?tab=${tab}`,
    ready: async (page: Page) => {
      await expect(page.getByRole("tab", { name: new RegExp(tab, "i") })).toHaveAttribute(
        "aria-selected",
        "true",
      );
      await expect(page.getByTestId("server-status")).toContainText("Ready", { timeout: 30_000 });
    },
  })),
  { path: "/servers/local-tools/edit", ready: heading(/^Edit /) },
  { path: "/tools", ready: heading("Tools") },
  { path: "/playground", ready: heading("Playground") },
  { path: "/agent", ready: heading("Agent") },
  { path: "/principals", ready: heading("Principals") },
  { path: "/principals/{principal}", ready: async (page) => heading(made.principalName)(page) },
  { path: "/calls", ready: heading("Calls") },
  { path: "/calls/{call}", ready: async (page) => expect(page.getByTestId("call-status")).toBeVisible() },
  { path: "/approvals", ready: heading("Approvals") },
  { path: "/events", ready: heading("Events") },
  { path: "/api", ready: async (page) => expect(page.getByRole("heading", { level: 1 })).toBeVisible() },
  ...["members", "api-keys", "secrets", "approvals", "egress", "limits", "gateway", "audit", "instance"].map(
    (tab) => ({
      path: `/settings/${tab}`,
      ready: async (page: Page) => {
        await expect(page.getByRole("navigation", { name: "Settings" })).toBeVisible();
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      },
    }),
  ),
];

const signedOutPages: Target[] = [
  {
    path: "/sign-in",
    ready: async (page) => expect(page.getByRole("button", { name: "Sign in" })).toBeVisible(),
  },
  {
    path: "/invite/{invitation}",
    ready: async (page) =>
      expect(page.getByRole("button", { name: "Create account and join" })).toBeVisible(),
  },
  {
    path: "/invite/not-a-real-invitation",
    ready: heading("Invitation not valid"),
  },
];

const resolve = (path: string) =>
  path
    .replace("{principal}", made.principalId)
    .replace("{call}", made.callId)
    .replace("{invitation}", made.invitationPath);

async function expectNoSeriousViolations(page: Page, path: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      elements: v.nodes.map((node) => `${node.target.join(" ")}: ${node.html}`),
    }))
    .filter((v) => v.elements.length > 0);
  expect(found, `axe on ${path}`).toEqual([]);
}

test.describe("accessibility (axe)", () => {
  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    await waitUntilReady(api, "local-tools", 60_000);
    made.principalName = `a11y-${Math.random().toString(36).slice(2, 8)}`;
    // Granted nothing: its call is refused at once, so no call waits in the shared queue.
    const { principalId, agent } = await createAgent(api, playwright, {
      baseURL,
      name: made.principalName,
      patterns: [],
    });
    made.principalId = principalId;
    const call = await agent.post("/api/v1/calls", {
      data: { tool: "local-tools__echo", arguments: { text: "accessibility" } },
    });
    made.callId = ((await call.json()) as { call: { id: string } }).call.id;
    await agent.dispose();
    const invitation = await api.post("/api/v1/invitations", { data: { role: "viewer" } });
    expect(invitation.status()).toBe(201);
    const { id, url } = (await invitation.json()) as { id: string; url: string };
    made.invitationId = id;
    made.invitationPath = new URL(url).pathname.replace(/^\/invite\//, "");
    await api.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    if (made.invitationId) await api.delete(`/api/v1/invitations/${made.invitationId}`);
    if (made.principalId) await api.delete(`/api/v1/principals/${made.principalId}`);
    await api.dispose();
  });

  for (const target of dashboardPages) {
    test(`${target.path} has no serious or critical violations`, async ({ page }) => {
      const path = resolve(target.path);
      await page.goto(path);
      await target.ready(page);
      await expectNoSeriousViolations(page, target.path);
    });
  }

  for (const target of signedOutPages) {
    test(`${target.path} (signed out) has no serious or critical violations`, async ({ browser }) => {
      const context = await signedOutContext(browser);
      try {
        const page = await context.newPage();
        await page.goto(resolve(target.path));
        await target.ready(page);
        await expectNoSeriousViolations(page, target.path);
      } finally {
        await context.close();
      }
    });
  }
});
