import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { networkInterfaces } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { securityOwnerKey } from "../../playwright.config";
import { initializeRequest } from "../fixtures/mcp-messages";
import { expect, joinAs, test } from "./fixtures";

/**
 * #15 item 2: loopback trust was taken from HOST and from X-Forwarded-For. Under
 * `next start -H 0.0.0.0` (HOST left at its default) a peer on the network sending
 * `X-Forwarded-For: 127.0.0.1` got the keyless loopback principal and completed first-run setup
 * without the setup token; a sign-in's audited address was whatever X-Forwarded-For said.
 */

const initialize = initializeRequest("outsider");
const mcpHeaders = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };

/** This machine's first non-loopback IPv4 address: connections to it come from a non-loopback peer. */
function externalAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces()))
    for (const a of addresses ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  return undefined;
}

/** Maps keyless gateway requests to a fresh principal; gives back the status of that PUT. */
async function mapLoopbackToNewPrincipal(api: APIRequestContext, name: string): Promise<number> {
  const principal = await api.post("/api/v1/principals", { data: { name } });
  expect(principal.status(), await principal.text()).toBe(201);
  const { principal: created } = (await principal.json()) as { principal: { id: string } };
  const mapped = await api.put("/api/v1/settings/gateway", { data: { loopbackPrincipalId: created.id } });
  return mapped.status();
}

test.describe("a Switchboard on 0.0.0.0 (`next start -H 0.0.0.0`), reached from another address", () => {
  const lanAddress = externalAddress();
  test.skip(!lanAddress, "this machine has no non-loopback address to connect from");
  const port = Number(process.env.SECURITY_PORT ?? 3211) + 60;
  const dataDir = path.resolve(".data/security-wide-open");
  let server: ChildProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(path.dirname(dataDir), { recursive: true });
    // HOST is not set: the README's `next start -H 0.0.0.0` serves everything on every interface.
    const { HOST: _host, ...env } = process.env;
    server = spawn(
      process.execPath,
      ["node_modules/next/dist/bin/next", "start", "-H", "0.0.0.0", "-p", String(port)],
      {
        env: {
          ...env,
          PORT: String(port),
          SWITCHBOARD_DATA_DIR: dataDir,
          SWITCHBOARD_BOOTSTRAP_API_KEY: securityOwnerKey,
          SWITCHBOARD_ALLOWED_HOSTS: lanAddress ?? "",
          SWITCHBOARD_SEED_DEMO: "false",
          NEXT_TELEMETRY_DISABLED: "1",
        },
        stdio: "ignore",
      },
    );
    await expect
      .poll(
        async () => {
          const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined);
          return health?.status;
        },
        { timeout: 150_000, intervals: [500] },
      )
      .toBe(200);
  });

  test.afterAll(async () => {
    server?.kill("SIGTERM");
    if (server && server.exitCode === null) await new Promise((resolve) => server?.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a forged X-Forwarded-For: 127.0.0.1 gets neither the keyless principal nor a token-free setup", async ({
    playwright,
    browser,
  }) => {
    const owner = await playwright.request.newContext({
      baseURL: `http://127.0.0.1:${port}`,
      extraHTTPHeaders: { Authorization: `Bearer ${securityOwnerKey}` },
    });
    const outsider = await playwright.request.newContext({
      baseURL: `http://${lanAddress}:${port}`,
      extraHTTPHeaders: { "X-Forwarded-For": "127.0.0.1" },
    });
    try {
      // The admin may or may not be allowed to map keyless requests here; either way nobody from
      // the network may use such a mapping.
      expect([200, 403]).toContain(await mapLoopbackToNewPrincipal(owner, "local-only"));
      const keyless = await outsider.post("/mcp", { headers: mcpHeaders, data: initialize });
      expect.soft(keyless.status(), await keyless.text()).toBe(401);

      // First-run setup from the network: the visitor is asked for the printed token.
      const context = await browser.newContext({
        baseURL: `http://${lanAddress}:${port}`,
        extraHTTPHeaders: { "X-Forwarded-For": "127.0.0.1" },
        storageState: { cookies: [], origins: [] },
      });
      const page = await context.newPage();
      await page.goto("/setup");
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await expect(page.getByRole("heading", { name: "Welcome to Switchboard" })).toBeVisible();
      await expect(page.getByRole("textbox", { name: "Setup token" })).toBeVisible();
      await page.getByRole("textbox", { name: "Your name" }).fill("Mallory");
      await page.getByRole("textbox", { name: "Email" }).fill("mallory@example.com");
      await page.getByLabel("Password").fill("a long enough password");
      await page.getByRole("textbox", { name: "Setup token" }).fill("guessed-token");
      await page.getByRole("button", { name: "Create admin account" }).click();
      await expect(page.getByText("This token is not valid.")).toBeVisible();
      const members = await owner.get("/api/v1/members");
      expect(members.status(), await members.text()).toBe(200);
      expect(((await members.json()) as { members: unknown[] }).members).toEqual([]);
      await context.close();
    } finally {
      await owner.put("/api/v1/settings/gateway", { data: { loopbackPrincipalId: null } });
      await owner.dispose();
      await outsider.dispose();
    }
  });
});

test.describe("the Switchboard server on loopback", () => {
  test("a request that names a forwarded client is not this machine's, whatever it names", async ({
    owner,
    playwright,
    baseURL,
  }) => {
    expect(await mapLoopbackToNewPrincipal(owner, `local-agent-${Date.now()}`)).toBe(200);
    try {
      const anonymous = await playwright.request.newContext({ baseURL });
      // Without forwarding headers, a loopback peer is this machine: the mapping applies.
      const local = await anonymous.post("/mcp", { headers: mcpHeaders, data: initialize });
      expect(local.status(), await local.text()).toBe(200);
      // A reverse proxy on this machine relaying outside traffic (not in SWITCHBOARD_TRUSTED_PROXIES):
      // whatever it claims, the request is not this machine's.
      const forwardings: Array<Record<string, string>> = [
        { "X-Forwarded-For": "127.0.0.1" },
        { Forwarded: "for=203.0.113.9" },
        { "X-Forwarded-Host": "127.0.0.1" },
      ];
      for (const forwarded of forwardings) {
        const relayed = await anonymous.post("/mcp", {
          headers: { ...mcpHeaders, ...forwarded },
          data: initialize,
        });
        expect(relayed.status(), JSON.stringify(forwarded)).toBe(401);
      }
      await anonymous.dispose();
    } finally {
      const off = await owner.put("/api/v1/settings/gateway", { data: { loopbackPrincipalId: null } });
      expect(off.status()).toBe(200);
    }
  });

  test("a sign-in is audited with the socket's address, not X-Forwarded-For's", async ({
    owner,
    browser,
  }) => {
    const email = `forwarder-${Date.now()}@example.com`;
    const joined = await joinAs(browser, owner, { name: "Forwarder", email, role: "viewer" });
    await joined.close();

    const context = await browser.newContext({
      storageState: { cookies: [], origins: [] },
      extraHTTPHeaders: { "X-Forwarded-For": "6.6.6.6" },
    });
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByRole("textbox", { name: "Email" }).fill(email);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await context.close();

    const audit = await owner.get("/api/v1/audit?action=auth.signed_in&limit=50");
    expect(audit.status(), await audit.text()).toBe(200);
    const { entries } = (await audit.json()) as {
      entries: Array<{ action: string; actorEmail?: string; subject: unknown; ipAddress: string | null }>;
    };
    const entry = entries.find((e) => JSON.stringify(e).includes(email));
    expect(entry, JSON.stringify(entries)).toBeDefined();
    expect(entry?.ipAddress).toBe("127.0.0.1");
  });
});
