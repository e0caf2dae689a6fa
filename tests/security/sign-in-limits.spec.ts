import type { APIRequestContext, Browser } from "@playwright/test";
import { waitForHydrationOnLoad } from "../e2e/fixtures";
import { expect, test } from "./fixtures";
import { type FreshSwitchboard, startFreshSwitchboard } from "./fresh-switchboard";
import { type ActionReply, type CapturedAction, callAction, captureAction } from "./server-actions";

/*
 * The attack: 40 wrong passwords sent at once were all checked, although an account locks after 5
 * failures in 15 minutes — every request read the count before any of them wrote a failure. And
 * nothing limited one address trying many accounts. On a Switchboard of its own: the address
 * limit would otherwise lock the other specs (all on 127.0.0.1) out of signing in.
 */

const ownerKey = "sb_sign-in-limits-owner-key-0123456789";
const person = { name: "Sig Signer", email: "sig@example.com", password: "the right password" };
/** lib/auth/sign-in-limits.ts, as the README states them. */
const ACCOUNT_LIMIT = 5;
const ADDRESS_LIMIT = 20;

let server: FreshSwitchboard;
let signInAction: CapturedAction;
let anonymous: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  server = await startFreshSwitchboard("sign-in-limits", { SWITCHBOARD_BOOTSTRAP_API_KEY: ownerKey });
  await setUp(browser, server.baseURL);
  const context = await browser.newContext({ baseURL: server.baseURL });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByRole("textbox", { name: "Email" }).fill(person.email);
  await page.getByLabel("Password").fill("not the password");
  signInAction = await captureAction(page, () => page.getByRole("button", { name: "Sign in" }).click());
  await context.close();
  anonymous = await playwright.request.newContext({ baseURL: server.baseURL });
});

test.afterAll(async () => {
  await anonymous?.dispose();
  await server?.stop();
});

const signIn = (email: string, password: string) =>
  callAction(anonymous, signInAction, [{ email, password }]);

test("40 wrong passwords at once: at most 5 are checked, the rest are refused with when to retry", async ({
  playwright,
}) => {
  const replies = await Promise.all(
    Array.from({ length: 40 }, (_, i) => signIn(person.email, `wrong password ${i}`)),
  );
  const checked = replies.filter((r) => r.error?.code === "unauthenticated");
  const refused = replies.filter((r) => r.error?.code === "rate_limited");
  expect(checked.length).toBeGreaterThan(0);
  expect(checked.length).toBeLessThanOrEqual(ACCOUNT_LIMIT);
  expect(refused.length).toBe(40 - checked.length);
  for (const reply of refused) expectRetryLater(reply, /account/);

  // The audit log agrees: no more than five passwords were tried.
  const owner = await playwright.request.newContext({
    baseURL: server.baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${ownerKey}` },
  });
  const audit = await owner.get("/api/v1/audit?action=auth.sign_in_failed&limit=200");
  expect(audit.status()).toBe(200);
  const { entries } = (await audit.json()) as { entries: Array<{ subject: string | null }> };
  expect(entries.filter((e) => e.subject === person.email).length).toBeLessThanOrEqual(ACCOUNT_LIMIT);
  await owner.dispose();

  // Locked means locked: the right password waits too, and is not checked meanwhile.
  expectRetryLater(await signIn(person.email, person.password), /account/);
});

test("one address trying many accounts is limited too", async () => {
  const replies = await Promise.all(
    Array.from({ length: 40 }, (_, i) => signIn(`someone-${i}@example.com`, "a guessed password")),
  );
  const checked = replies.filter((r) => r.error?.code === "unauthenticated");
  const refused = replies.filter((r) => r.error?.code === "rate_limited");
  // The first test's failures count against this address as well.
  expect(checked.length).toBeLessThanOrEqual(ADDRESS_LIMIT);
  expect(refused.length).toBe(40 - checked.length);
  for (const reply of refused) expectRetryLater(reply, /address/);
  // An account never tried before is refused too: the address is what is limited.
  expectRetryLater(await signIn("never-tried@example.com", "a guessed password"), /address/);
});

function expectRetryLater(reply: ActionReply, rule: RegExp): void {
  expect(reply.ok).toBe(false);
  expect(reply.error?.code).toBe("rate_limited");
  expect(reply.error?.message).toMatch(rule);
  expect(reply.error?.message).toMatch(/try again in \d+ minutes?/i);
  expect(reply.error?.retryAfterSeconds).toBeGreaterThan(0);
  expect(reply.error?.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
  expect(reply.setCookie).not.toContain("session_token");
}

/** First-run setup in a browser: the person becomes the admin (and a member whose sign-ins are audited). */
async function setUp(browser: Browser, baseURL: string): Promise<void> {
  const context = await browser.newContext({ baseURL });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto("/setup");
  await page.getByRole("textbox", { name: "Your name" }).fill(person.name);
  await page.getByRole("textbox", { name: "Email" }).fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible({ timeout: 60_000 });
  await context.close();
}
