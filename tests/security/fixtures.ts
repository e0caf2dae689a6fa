import path from "node:path";
import {
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  test as base,
  expect,
} from "@playwright/test";
import type { InstancePolicy } from "@/lib/policy/instance-policy-schema";
import { securityDataDir, securityOwnerKey } from "../../playwright.config";
import { waitForHydrationOnLoad } from "../e2e/fixtures";
import { initializeRequest } from "../fixtures/mcp-messages";

/** The security server's data folder, as the server resolves it (its cwd is the project). */
export const dataDir = path.resolve(securityDataDir);

type Fixtures = {
  /** REST as the instance owner: the headless-bootstrap key (scopes admin and owner; the machine's key). */
  owner: APIRequestContext;
  /** REST as a workspace admin who is not an instance owner: an admin key the owner's key made. */
  workspaceAdmin: APIRequestContext;
};

export const test = base.extend<Fixtures>({
  context: async ({ context }, use) => {
    waitForHydrationOnLoad(context);
    await use(context);
  },
  owner: async ({ playwright, baseURL }, use) => {
    const owner = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${securityOwnerKey}` },
    });
    await use(owner);
    await owner.dispose();
  },
  workspaceAdmin: async ({ playwright, baseURL, owner }, use) => {
    const created = await owner.post("/api/v1/api-keys", {
      data: { name: `workspace admin ${Date.now()}`, scopes: ["admin"] },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const admin = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${key}` },
    });
    await use(admin);
    await admin.dispose();
  },
});

export { expect };

export type ErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string[]> } };

export async function errorOf(response: APIResponse): Promise<ErrorBody["error"]> {
  return ((await response.json()) as ErrorBody).error;
}

/** A person who joins the owner's workspace through an invitation link, in a browser of their own. */
export async function joinAs(
  browser: Browser,
  owner: APIRequestContext,
  person: { name: string; email: string; role: "viewer" | "approver" | "admin" },
): Promise<BrowserContext> {
  const invitation = await owner.post("/api/v1/invitations", { data: { role: person.role } });
  expect(invitation.status(), await invitation.text()).toBe(201);
  const { url } = (await invitation.json()) as { url: string };
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto(new URL(url).pathname);
  await page.getByRole("textbox", { name: "Your name" }).fill(person.name);
  await page.getByRole("textbox", { name: "Email" }).fill(person.email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await page.close();
  return context;
}

/** PUT the instance policy and give back a function that restores what it was. */
export async function changeInstancePolicy(
  owner: APIRequestContext,
  change: (policy: InstancePolicy) => void,
): Promise<() => Promise<void>> {
  const read = await owner.get("/api/v1/instance/policy");
  const before = ((await read.json()) as { policy: InstancePolicy }).policy;
  const next = structuredClone(before);
  change(next);
  const saved = await owner.put("/api/v1/instance/policy", { data: next });
  expect(saved.status(), await saved.text()).toBe(200);
  return async () => {
    const restored = await owner.put("/api/v1/instance/policy", { data: before });
    expect(restored.status(), await restored.text()).toBe(200);
  };
}

/** POST /mcp `initialize` with an agent's key: the gateway's front door. */
export function initializeGateway(gateway: APIRequestContext, key: string): Promise<APIResponse> {
  return gateway.post("/mcp", {
    headers: {
      Authorization: `Bearer ${key}`,
      Accept: "application/json, text/event-stream",
      "Content-Type": "application/json",
    },
    data: initializeRequest("probe"),
  });
}
