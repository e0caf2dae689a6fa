import type { APIRequestContext, Browser } from "@playwright/test";
import { securityOwnerKey } from "../../playwright.config";
import { waitForHydrationOnLoad } from "../e2e/fixtures";
import { expect, joinAs, test } from "./fixtures";
import { type CapturedAction, callAction, captureAction } from "./server-actions";

/*
 * The attack: accepting an invitation with a made-up token created an account and returned a
 * session (the account was created before the token was looked at), and "an account with this
 * email already exists" told anyone which emails have accounts. Now the token is checked and used
 * in the same transaction that creates the account, and every failure reads the same.
 */

const password = "a long enough password";

let joinAction: CapturedAction;
let signInAction: CapturedAction;
let anonymous: APIRequestContext;
/** Has an account (a beforeAll may run again after a failure: a new one each time). */
const member = { name: "Ivy Invited", email: `ivy-${Date.now()}@example.com`, role: "viewer" as const };

test.beforeAll(async ({ browser, playwright, baseURL }) => {
  anonymous = await playwright.request.newContext({ baseURL });
  const owner = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${securityOwnerKey}` },
  });
  joinAction = await captureJoin(browser, owner, baseURL as string);
  // Someone with an account: their email is what the second test probes (and, with an account
  // in place, the sign-in page no longer sends visitors to first-run setup).
  await (await joinAs(browser, owner, member)).close();
  signInAction = await captureSignIn(browser, baseURL as string);
  await owner.dispose();
});

test.afterAll(async () => {
  await anonymous?.dispose();
});

const join = (token: string, email: string) =>
  callAction(anonymous, joinAction, [token, { name: "Someone", email, password }]);

async function newInvitation(owner: APIRequestContext): Promise<string> {
  const created = await owner.post("/api/v1/invitations", { data: { role: "viewer" } });
  expect(created.status(), await created.text()).toBe(201);
  const { url } = (await created.json()) as { url: string };
  return new URL(url).pathname.split("/").pop() as string;
}

test("a made-up token creates no account and no session, and says no more than any other failure", async ({
  owner,
}) => {
  const bogus = await join("made-up-token-0123456789abcdef", "mallory@example.com");
  expect(bogus.ok).toBe(false);
  expect(bogus.setCookie).not.toContain("session_token");
  // No account was made: signing in with what was sent fails like any unknown email.
  const signIn = await callAction(anonymous, signInAction, [{ email: "mallory@example.com", password }]);
  expect(signIn.ok).toBe(false);
  expect(signIn.error?.message).toBe("Wrong email or password.");

  // An email that has an account, with a real invitation: the very same answer.
  const token = await newInvitation(owner);
  const taken = await join(token, member.email);
  expect(taken.ok).toBe(false);
  expect(taken.error?.message).toBe(bogus.error?.message);
  expect(taken.error?.code).toBe(bogus.error?.code);
  expect(taken.error?.message).not.toMatch(/exist/i);
  expect(taken.setCookie).not.toContain("session_token");

  // The failed attempt used nothing: the invitation still works, once, for a new person.
  const joined = await join(token, "june@example.com");
  expect(joined.ok, JSON.stringify(joined.error)).toBe(true);
  expect(joined.setCookie).toContain("session_token");
  const again = await join(token, "jules@example.com");
  expect(again.ok).toBe(false);
  expect(again.error?.message).toBe(bogus.error?.message);
});

test("better-auth's own sign-up endpoint does not open registration", async () => {
  for (const path of ["/api/auth/sign-up/email", "/api/auth/sign-up"]) {
    const response = await anonymous.post(path, {
      data: { name: "Open Door", email: "open-door@example.com", password },
    });
    expect(response.status(), path).toBeGreaterThanOrEqual(400);
    expect(response.headers()["set-cookie"] ?? "", path).not.toContain("session_token");
  }
  const signIn = await callAction(anonymous, signInAction, [{ email: "open-door@example.com", password }]);
  expect(signIn.error?.message).toBe("Wrong email or password.");
});

/** The join form's action, captured on a real invitation page (the request is never sent). */
async function captureJoin(browser: Browser, owner: APIRequestContext, baseURL: string) {
  const token = await newInvitation(owner);
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto(`/invite/${token}`);
  await page.getByRole("textbox", { name: "Your name" }).fill("Someone");
  await page.getByRole("textbox", { name: "Email" }).fill("someone@example.com");
  await page.getByLabel("Password").fill(password);
  const action = await captureAction(page, () =>
    page.getByRole("button", { name: "Create account and join" }).click(),
  );
  // The token travels as the action's first argument, the account as its second.
  expect(action.args[0]).toBe(token);
  await context.close();
  return action;
}

async function captureSignIn(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  waitForHydrationOnLoad(context);
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByRole("textbox", { name: "Email" }).fill("x@example.com");
  await page.getByLabel("Password").fill("whatever it is");
  const action = await captureAction(page, () => page.getByRole("button", { name: "Sign in" }).click());
  await context.close();
  return action;
}
