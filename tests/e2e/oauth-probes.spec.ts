import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * A bad or revoked key, as MCP clients meet it through the built server: they answer the
 * gateway's 401 by probing OAuth discovery and registration, and print what those answer. The
 * probes (rewritten by next.config.ts — the App Router cannot route /.well-known) get a JSON 404
 * saying Switchboard takes API keys, never the HTML page and never a sign-in redirect; the 401
 * carries the gateway's message as error_description.
 */

const run = promisify(execFile);

const probePaths = [
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp",
  "/.well-known/oauth-protected-resource/mcp/servers/local-tools",
  "/.well-known/oauth-authorization-server",
  "/.well-known/oauth-authorization-server/mcp",
  "/.well-known/openid-configuration",
  "/.well-known/openid-configuration/mcp",
  "/register",
];

test.describe("OAuth probes and the gateway's 401", () => {
  let anonymous: APIRequestContext;
  let revokedKey: string;

  test.beforeAll(async ({ playwright, baseURL }) => {
    // No session cookie, no key: as an MCP client probes (a signed-in browser proves nothing here).
    anonymous = await playwright.request.newContext({ baseURL });
  });
  test.afterAll(async () => {
    await anonymous?.dispose();
  });

  test("every discovery path and /register answers a JSON 404 that says to use an API key", async () => {
    for (const path of probePaths) {
      for (const method of ["GET", "POST"] as const) {
        const response = await anonymous.fetch(path, {
          method,
          maxRedirects: 0,
          ...(method === "POST" ? { data: { redirect_uris: ["http://localhost:1/cb"] } } : {}),
        });
        expect(response.status(), `${method} ${path}`).toBe(404);
        expect(response.headers()["content-type"], `${method} ${path}`).toContain("application/json");
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("not_found");
        expect(body.error.message).toMatch(/^Switchboard is not an OAuth authorization server: .*API key/);
      }
    }
    // Any other unknown path is still the HTML page for people.
    const page = await anonymous.get("/.well-known/something-else", { maxRedirects: 0 });
    expect(page.status()).toBe(404);
    expect(page.headers()["content-type"]).toContain("text/html");
  });

  test("a revoked key: the 401 and the registration mcp-remote tries both say it was revoked", async ({
    api,
  }) => {
    const created = await api.post("/api/v1/principals", {
      data: { name: `probe-e2e-${Math.random().toString(36).slice(2, 8)}` },
    });
    const { principal } = (await created.json()) as { principal: { id: string } };
    const made = (await (
      await api.post(`/api/v1/principals/${principal.id}/keys`, { data: { name: "to revoke" } })
    ).json()) as { key: string; apiKey: { id: string } };
    revokedKey = made.key;
    expect((await api.delete(`/api/v1/api-keys/${made.apiKey.id}`)).ok()).toBe(true);

    const refused = await anonymous.post("/mcp", {
      headers: { Authorization: `Bearer ${revokedKey}`, Accept: "application/json, text/event-stream" },
      data: { jsonrpc: "2.0", id: 1, method: "initialize" },
    });
    expect(refused.status()).toBe(401);
    expect(refused.headers()["www-authenticate"]).toBe(
      'Bearer realm="switchboard", error="invalid_token", error_description="The API key has been revoked."',
    );
    // mcp-remote sends its --header with every request, /register included.
    const registration = await anonymous.post("/register", {
      headers: { Authorization: `Bearer ${revokedKey}` },
      data: { redirect_uris: ["http://localhost:1/cb"], client_name: "MCP CLI Proxy" },
    });
    expect(registration.status()).toBe(404);
    const { error } = (await registration.json()) as { error: { message: string } };
    expect(error.message).toMatch(
      /^The API key has been revoked\. Switchboard is not an OAuth authorization server/,
    );
    await api.delete(`/api/v1/principals/${principal.id}`);
  });

  test("the MCP Inspector CLI prints the gateway's message for a key that is not valid", async ({
    baseURL,
  }) => {
    const result = await run(
      "node",
      [
        "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
        "--cli",
        new URL("/mcp", baseURL).href,
        "--transport",
        "http",
        "--header",
        "Authorization: Bearer sb_not-a-real-key-0000000000000000",
        "--stored-auth-only",
        "--method",
        "tools/list",
      ],
      { timeout: 60_000 },
    ).catch((error: { stdout: string; stderr: string }) => error);
    expect(`${result.stdout}${result.stderr}`).toContain("The API key is not valid");
    expect(`${result.stdout}${result.stderr}`).not.toContain("<html");
  });
});
