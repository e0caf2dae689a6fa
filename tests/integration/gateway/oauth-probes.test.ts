import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET, POST } from "@/app/oauth/no-authorization-server/route";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { challengeText } from "@/lib/gateway/auth";
import { handleGatewayRequest } from "@/lib/gateway/handler";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { createTestAgent, drivers, openProcessTestDatabase } from "../../fixtures/databases";

/*
 * What an MCP client meets with a bad or revoked key. mcp-remote and the Inspector answer the
 * gateway's 401 by probing OAuth discovery and registration, and print what those answer: the
 * probes get a JSON 404 that says why (with mcp-remote's forwarded key, the gateway's own verdict
 * on it), and the 401 carries the message as the challenge's error_description.
 * (Through the built server — the rewrites of the real paths — tests/e2e/oauth-probes.spec.ts.)
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const INVALID = "The API key is not valid: no active key matches it. Check that it was copied whole.";
const REVOKED = "The API key has been revoked.";

describe.each(drivers)("OAuth probes and the gateway's 401 (%s)", (driver) => {
  let handle: ProcessDatabase;
  let revokedKey: string;
  let validKey: string;

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    const tenantId = handle.defaultTenant.id;
    validKey = (await createTestAgent(handle.db, { tenantId, name: "probe-valid" })).key;
    const revoked = await createTestAgent(handle.db, { tenantId, name: "probe-revoked" });
    await revokeApiKey(handle.db, { tenantId, id: revoked.keyId, by: null });
    revokedKey = revoked.key;
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** The probe handler as next.config.ts rewrites the discovery paths and /register to it. */
  async function probe(method: "GET" | "POST", headers: Record<string, string> = {}) {
    const url = "http://127.0.0.1:3000/oauth/no-authorization-server";
    const req =
      method === "GET"
        ? new Request(url, { headers })
        : new Request(url, {
            method,
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify({ redirect_uris: ["http://localhost:1/cb"], client_name: "MCP CLI Proxy" }),
          });
    const response = await (method === "GET" ? GET : POST)(req, { params: Promise.resolve({}) });
    expect(response.headers.get("content-type")).toContain("application/json");
    return {
      status: response.status,
      body: (await response.json()) as { error: { code: string; message: string } },
    };
  }

  it.each(["GET", "POST"] as const)(
    "%s with no key: a JSON 404 that says Switchboard takes API keys",
    async (method) => {
      const { status, body } = await probe(method);
      expect(status).toBe(404);
      expect(body.error.code).toBe("not_found");
      expect(body.error.message).toMatch(/^Switchboard is not an OAuth authorization server: .*API key/);
    },
  );

  it("with the key mcp-remote forwards, the answer starts with the gateway's verdict on it", async () => {
    const bogus = await probe("POST", { authorization: "Bearer sb_bogus-key-000000000000000000" });
    expect(bogus.status).toBe(404);
    expect(bogus.body.error.message.startsWith(INVALID)).toBe(true);
    expect(bogus.body.error.message).toContain("not an OAuth authorization server");

    const revoked = await probe("GET", { "x-api-key": revokedKey });
    expect(revoked.body.error.message.startsWith(REVOKED)).toBe(true);

    const notOurs = await probe("POST", { authorization: "Bearer ghp_someone-elses-token" });
    expect(notOurs.body.error.message).toMatch(/^That is not a Switchboard API key/);

    const valid = await probe("GET", { authorization: `Bearer ${validKey}` });
    expect(valid.status).toBe(404);
    expect(valid.body.error.message).toMatch(/^The key sent is a valid gateway key/);
  });

  async function gatewayPost(key: string) {
    return handleGatewayRequest(
      new Request("http://127.0.0.1:3000/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${key}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
      { scope: "all" },
    );
  }

  it.each([
    ["an unknown key", "sb_bogus-key-000000000000000000", INVALID],
    ["a revoked key", "revoked", REVOKED],
  ])("the gateway's 401 for %s carries its message as error_description", async (_label, key, message) => {
    const response = await gatewayPost(key === "revoked" ? revokedKey : key);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer realm="switchboard", error="invalid_token", error_description="${message}"`,
    );
    expect((await response.json()).error.message).toBe(message);
  });
});

describe("error_description text", () => {
  it("keeps plain messages as they are", () => {
    expect(challengeText(INVALID)).toBe(INVALID);
  });

  it("spells quotes, backslashes and common punctuation in what RFC 6750 allows", () => {
    const text = challengeText('Key "x" — revoked → ask\\admin… née');
    expect(text).toBe("Key 'x' - revoked -> ask/admin... ne");
    expect(text).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/);
    // A header value Node's fetch would refuse (non-Latin-1) would turn the 401 into a 500.
    expect(() => new Headers({ "www-authenticate": `Bearer error_description="${text}"` })).not.toThrow();
  });
});
