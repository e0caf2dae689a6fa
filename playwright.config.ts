import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
export const e2eDataDir = ".data/e2e";
export const e2eServerLog = ".data/e2e-server.log";
export const adminStorageState = ".data/e2e-admin.json";
/** The headless-bootstrap key (SWITCHBOARD_BOOTSTRAP_API_KEY): API calls in tests use it. */
export const e2eBootstrapKey = "sb_e2e-bootstrap-key-0123456789abcdef";

/**
 * tests/security reproduces attacks against a server of its own (instance policy changes, people
 * joining, probes that read files): the browser tests' server stays as they expect it.
 */
const securityPort = Number(process.env.SECURITY_PORT ?? port + 1);
export const securityDataDir = ".data/security";
export const securityServerLog = ".data/security-server.log";
/**
 * The DNS server that security server asks for downstream servers' hosts (SWITCHBOARD_DNS_SERVERS):
 * tests/security/dns-rebinding.spec.ts runs it, to change what a name resolves to mid-test.
 */
export const securityDnsPort = Number(process.env.SECURITY_DNS_PORT ?? securityPort + 2000);
/** The headless-bootstrap key of that server: an instance owner's key. */
export const securityOwnerKey = "sb_security-owner-key-0123456789abcdef";
/** Small gateway session caps, so tests/security/session-caps shows them with tens of sessions. */
export const securitySessionCaps = { perProcess: 50, perWorkspace: 6, perPrincipal: 4 };

/**
 * Browser tests against the Switchboard server (`node server.mjs`: run `next build` first; `npm test` does) on a fresh PGlite
 * folder, in Debian's Chromium. The server's output goes to a file so tests can search the log.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // First-run setup creates the admin and saves the session; every other test starts signed in.
    { name: "setup", testMatch: /first-run\.setup\.ts/ },
    {
      name: "dashboard",
      testMatch: /.*\.spec\.ts/,
      dependencies: ["setup"],
      use: { storageState: adminStorageState },
    },
    {
      name: "security",
      testDir: "tests/security",
      testMatch: /.*\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${securityPort}` },
    },
  ],
  webServer: [
    {
      command: `mkdir -p .data && rm -rf ${e2eDataDir} && exec node server.mjs > ${e2eServerLog} 2>&1`,
      url: `http://127.0.0.1:${port}/api/v1/health/ready`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: {
        HOST: "127.0.0.1",
        PORT: String(port),
        SWITCHBOARD_DATA_DIR: e2eDataDir,
        SWITCHBOARD_BOOTSTRAP_API_KEY: e2eBootstrapKey,
        // Webhook retries two seconds apart: tests/e2e/webhooks.spec.ts watches a failing receiver recover.
        SWITCHBOARD_WEBHOOK_RETRY_SECONDS: "2,2,2,2",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
    {
      command: `mkdir -p .data && rm -rf ${securityDataDir} && exec node server.mjs > ${securityServerLog} 2>&1`,
      url: `http://127.0.0.1:${securityPort}/api/v1/health/ready`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: {
        HOST: "127.0.0.1",
        PORT: String(securityPort),
        SWITCHBOARD_DATA_DIR: securityDataDir,
        SWITCHBOARD_BOOTSTRAP_API_KEY: securityOwnerKey,
        SWITCHBOARD_MCP_MAX_SESSIONS: String(securitySessionCaps.perProcess),
        SWITCHBOARD_MCP_MAX_SESSIONS_PER_WORKSPACE: String(securitySessionCaps.perWorkspace),
        SWITCHBOARD_MCP_MAX_SESSIONS_PER_PRINCIPAL: String(securitySessionCaps.perPrincipal),
        SWITCHBOARD_DNS_SERVERS: `127.0.0.1:${securityDnsPort}`,
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  ],
});
