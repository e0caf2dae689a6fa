import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root, "server-only": `${root}tests/fixtures/server-only-stub.ts` } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/fixtures/listening-on-loopback.ts"],
        },
      },
      {
        extends: true,
        // Client hooks and components in a DOM (jsdom), against real local endpoints.
        test: { name: "components", include: ["tests/components/**/*.test.{ts,tsx}"], environment: "jsdom" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/fixtures/global-setup.ts"],
          setupFiles: ["tests/fixtures/listening-on-loopback.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite instances are ~700 MB each and the machine has 2 cores: keep files in a small pool.
          maxWorkers: 2,
        },
      },
    ],
  },
});
