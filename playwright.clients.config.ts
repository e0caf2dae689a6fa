import { defineConfig } from "@playwright/test";

/**
 * The client compatibility suite (tests/clients, `npm run test:clients`): real MCP clients from npm
 * (pinned in tests/clients/fixtures/installed-clients.ts, installed on demand) against a built
 * Switchboard (`node server.mjs`, run `next build` first) that each spec starts on its own PGlite
 * folder. No browser. A client that needs a model to call a tool talks to a scripted stand-in for
 * the model's API in the test: no account, no network.
 */
export default defineConfig({
  testDir: "tests/clients",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI
    ? [["list"]]
    : [["list"], ["html", { open: "never", outputFolder: "playwright-report/clients" }]],
});
