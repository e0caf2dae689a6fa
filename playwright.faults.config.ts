import { defineConfig } from "@playwright/test";

/**
 * The fault tests (tests/faults): real Switchboard processes (`node server.mjs`, from the .next build)
 * on a PostgreSQL server or PGlite folders the tests start themselves, killed, signalled and cut off
 * from their database at chosen moments. No browser and no shared server: each spec starts its own.
 */
export default defineConfig({
  testDir: "tests/faults",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 300_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI
    ? [["list"]]
    : [["list"], ["html", { open: "never", outputFolder: "playwright-report/faults" }]],
});
