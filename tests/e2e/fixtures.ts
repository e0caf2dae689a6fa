import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  test as base,
  type Page,
} from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";

export const admin = { name: "Ada Admin", email: "ada@example.com", password: "correct horse battery" };

/**
 * Every page of `context` waits, after goto and reload, until React has hydrated the document
 * (components/providers.tsx marks it). A test acts faster than a person: a click or a pick in the
 * server-rendered page before hydration is simply lost, and on a busy machine that window is long.
 */
export function waitForHydrationOnLoad(context: BrowserContext): void {
  for (const page of context.pages()) patchLoads(page);
  context.on("page", patchLoads);
}

const patched = new WeakSet<Page>();

function patchLoads(page: Page): void {
  if (patched.has(page)) return;
  patched.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => untilHydrated(page, await goto(...args));
  page.reload = async (...args) => untilHydrated(page, await reload(...args));
}

async function untilHydrated<R extends { headers(): Record<string, string> } | null>(
  page: Page,
  response: R,
) {
  if (response?.headers()["content-type"]?.startsWith("text/html"))
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return response;
}

/** `api`: REST calls as the bootstrap admin key (not the browser session). */
export const test = base.extend<{ api: APIRequestContext }>({
  context: async ({ context }, use) => {
    waitForHydrationOnLoad(context);
    await use(context);
  },
  api: async ({ playwright, baseURL }, use) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    await use(api);
    await api.dispose();
  },
});

export { expect } from "@playwright/test";

/** A browser of someone not signed in (an invitee, a second person), waiting for hydration too. */
export async function signedOutContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  waitForHydrationOnLoad(context);
  return context;
}
