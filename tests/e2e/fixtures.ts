import { type APIRequestContext, test as base } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";

export const admin = { name: "Ada Admin", email: "ada@example.com", password: "correct horse battery" };

/** `api`: REST calls as the bootstrap admin key (not the browser session). */
export const test = base.extend<{ api: APIRequestContext }>({
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
