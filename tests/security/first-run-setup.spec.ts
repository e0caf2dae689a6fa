import type { APIRequestContext, Browser } from "@playwright/test";
import { waitForHydrationOnLoad } from "../e2e/fixtures";
import { expect, test } from "./fixtures";
import { type FreshSwitchboard, startFreshSwitchboard } from "./fresh-switchboard";
import { type CapturedAction, callAction, captureAction } from "./server-actions";

/*
 * The attack: "set up" meant "some account exists", so an account made any other way — through
 * an invitation with a made-up token — took first-run setup away from the real operator; and two
 * setups at once could both pass the check and both become instance owners. On a Switchboard of
 * its own (setup happens once per installation), headless (bootstrap key) like a CI install.
 */

const ownerKey = "sb_first-run-setup-owner-key-0123456789";
const password = "a long enough password";

let server: FreshSwitchboard;
let setupAction: CapturedAction;
let joinAction: CapturedAction;
let owner: APIRequestContext;
let anonymous: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  server = await startFreshSwitchboard("first-run-setup", { SWITCHBOARD_BOOTSTRAP_API_KEY: ownerKey });
  owner = await playwright.request.newContext({
    baseURL: server.baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${ownerKey}` },
  });
  anonymous = await playwright.request.newContext({ baseURL: server.baseURL });
  setupAction = await captureSetup(browser);
  joinAction = await captureJoin(browser);
});

test.afterAll(async () => {
  await owner?.dispose();
  await anonymous?.dispose();
  await server?.stop();
});

const join = (token: string, email: string) =>
  callAction(anonymous, joinAction, [token, { name: "Someone", email, password }]);

test("accounts made before setup — by a made-up invitation or a real one — do not take setup away", async ({
  browser,
}) => {
  const squatter = await join("made-up-token-0123456789abcdef", "squatter@example.com");
  expect(squatter.ok).toBe(false);
  // Someone the bootstrap key invited joins before anyone has set the instance up.
  const joined = await join(await newInvitation(), "early@example.com");
  expect(joined.ok, JSON.stringify(joined.error)).toBe(true);

  const context = await browser.newContext({ baseURL: server.baseURL });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto("/setup");
  await expect(page.getByRole("heading", { name: "Welcome to Switchboard" })).toBeVisible();
  await context.close();
  const owners = await owner.get("/api/v1/instance/owners");
  expect(((await owners.json()) as { owners: unknown[] }).owners).toEqual([]);
});

test("two setups at once: exactly one wins, the others get a 409 and change nothing", async () => {
  const replies = await Promise.all(
    Array.from({ length: 4 }, (_, i) =>
      callAction(anonymous, setupAction, [{ name: `Admin ${i}`, email: `admin-${i}@example.com`, password }]),
    ),
  );
  const won = replies.filter((r) => r.ok);
  const lost = replies.filter((r) => !r.ok);
  expect(won).toHaveLength(1);
  for (const reply of lost) {
    expect(reply.error?.code).toBe("conflict");
    expect(reply.error?.message).toMatch(/already set up/);
    expect(reply.setCookie).not.toContain("session_token");
  }
  const owners = await owner.get("/api/v1/instance/owners");
  expect(((await owners.json()) as { owners: unknown[] }).owners).toHaveLength(1);
  // Set up means set up: the page sends people to sign in.
  const again = await anonymous.get("/setup", { maxRedirects: 0 });
  expect(again.status()).toBe(307);
  expect(again.headers().location).toContain("/sign-in");
});

async function newInvitation(): Promise<string> {
  const created = await owner.post("/api/v1/invitations", { data: { role: "viewer" } });
  expect(created.status(), await created.text()).toBe(201);
  return new URL(((await created.json()) as { url: string }).url).pathname.split("/").pop() as string;
}

/** The setup form's action (the request is never sent: nobody is set up yet). */
async function captureSetup(browser: Browser): Promise<CapturedAction> {
  const context = await browser.newContext({ baseURL: server.baseURL });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto("/setup");
  await page.getByRole("textbox", { name: "Your name" }).fill("Probe");
  await page.getByRole("textbox", { name: "Email" }).fill("probe@example.com");
  await page.getByLabel("Password").fill(password);
  const action = await captureAction(page, () =>
    page.getByRole("button", { name: "Create admin account" }).click(),
  );
  await context.close();
  return action;
}

async function captureJoin(browser: Browser): Promise<CapturedAction> {
  const token = await newInvitation();
  const context = await browser.newContext({ baseURL: server.baseURL });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto(`/invite/${token}`);
  await page.getByRole("textbox", { name: "Your name" }).fill("Someone");
  await page.getByRole("textbox", { name: "Email" }).fill("someone@example.com");
  await page.getByLabel("Password").fill(password);
  const action = await captureAction(page, () =>
    page.getByRole("button", { name: "Create account and join" }).click(),
  );
  await context.close();
  return action;
}
