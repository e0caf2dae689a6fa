import { defineConfig } from "@playwright/test";

/**
 * The cluster tests (tests/cluster): three real Switchboard processes (`node server.mjs`, from the
 * .next build) on one PostgreSQL behind a real HAProxy (tests/fixtures/balancer.ts), restarted under
 * load. No browser and no shared server: each spec starts its own.
 */
export default defineConfig({
  testDir: "tests/cluster",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 600_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI
    ? [["list"]]
    : [["list"], ["html", { open: "never", outputFolder: "playwright-report/cluster" }]],
});
