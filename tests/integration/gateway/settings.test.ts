import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET, PUT } from "@/app/api/v1/settings/gateway/route";
import { auditEvents, events, tenants } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import type { DatabaseHandle } from "@/lib/db/client";
import { authenticateGateway, GatewayRefusal } from "@/lib/gateway/auth";
import { handleGatewayRequest } from "@/lib/gateway/handler";
import { putGatewaySettings } from "@/lib/gateway/settings/loopback-mapping";
import { recordListeningAddresses } from "@/lib/http/listening";
import { createPrincipal, deletePrincipal } from "@/lib/principals/principals";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { connectionHeader, headersFrom } from "../../fixtures/connection";
import {
  createTestAgent,
  createTestApiKey,
  openProcessTestDatabase,
  openTestDatabase,
} from "../../fixtures/databases";
import { initializeRequest } from "../../fixtures/mcp-messages";

/*
 * The loopback → principal mapping (Settings → Gateway): stored per workspace, held by one
 * workspace of the installation at most, refused and ignored unless Switchboard listens on
 * loopback only, and honoured by the gateway only for requests that carry no key.
 */

const secretKey = randomBytes(32).toString("base64");
vi.stubEnv("SWITCHBOARD_SECRET_KEY", secretKey);

const BASE = "http://127.0.0.1:3000";
type Settings = {
  loopbackPrincipal: { id: string; name: string } | null;
  canMapLoopback: boolean;
  loopbackUnavailableReason: string | null;
  isLoopbackHeldElsewhere: boolean;
  gatewayNameBudget: number;
};
type ErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string[]> } };

const call = (method: "GET" | "PUT", key: string, body?: unknown) =>
  (method === "GET" ? GET : PUT)(
    new Request(`${BASE}/api/v1/settings/gateway`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", host: "localhost:3000" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
const settingsOf = async (response: Response) => ((await response.json()) as { settings: Settings }).settings;
const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

/** The JSON-RPC result, whether the gateway answered with plain JSON or an event stream. */
async function jsonRpcResult(response: Response): Promise<{ serverInfo: { name: string } }> {
  const text = await response.text();
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? (text.split("\n").find((line) => /^data:\s*\S/.test(line)) ?? "").slice("data:".length)
    : text;
  return (JSON.parse(json) as { result: { serverInfo: { name: string } } }).result;
}

/** A request without a key that came in through server.mjs from a peer (this machine by default). */
const anonymousHeaders = (extra: Record<string, string> = {}, peer = "127.0.0.1") => headersFrom(peer, extra);

describe("gateway settings: the loopback → principal mapping (PGlite)", () => {
  let handle: ProcessDatabase;
  let adminKey: string;
  let otherAdminKey: string;
  let otherTenantId: string;
  let agent: { id: string; name: string };
  let otherAgent: { id: string; name: string };

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    adminKey = await createTestApiKey(handle, ["admin"]);
    agent = await createPrincipal(handle.db, {
      tenantId: handle.defaultTenant.id,
      input: { name: "local-agent" },
      by: null,
    });
    const [other] = await handle.db.insert(tenants).values({ slug: "other", name: "Other" }).returning();
    otherTenantId = other?.id ?? "";
    otherAdminKey = await createTestApiKey(handle, ["admin"], otherTenantId);
    otherAgent = await createPrincipal(handle.db, {
      tenantId: otherTenantId,
      input: { name: "other-agent" },
      by: null,
    });
  });
  beforeEach(async () => {
    recordListeningAddresses(["127.0.0.1"]);
    // Every test starts with the mapping off in both workspaces.
    expect((await call("PUT", adminKey, { loopbackPrincipalId: null })).status).toBe(200);
    expect((await call("PUT", otherAdminKey, { loopbackPrincipalId: null })).status).toBe(200);
  });
  afterAll(async () => {
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("is off by default, and the GET shows the gateway's URLs from the request's origin", async () => {
    const response = await call("GET", adminKey);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      settings: Settings;
      gateway: Record<string, unknown>;
      toolLists: {
        discoverBytes: number;
        principals: Array<{ name: string; tools: number; fullBytes: number }>;
      };
    };
    expect(body.settings).toEqual({
      loopbackPrincipal: null,
      canMapLoopback: true,
      loopbackUnavailableReason: null,
      isLoopbackHeldElsewhere: false,
      gatewayNameBudget: 46,
    });
    expect(body.gateway).toEqual({
      isEnabled: true,
      approvalWaitSeconds: 50,
      url: "http://localhost:3000/mcp",
      discoverUrl: "http://localhost:3000/mcp/discover",
      serverUrlTemplate: "http://localhost:3000/mcp/servers/{name}",
      claudeCommand:
        'claude mcp add --transport http switchboard http://localhost:3000/mcp --header "Authorization: Bearer <key>"',
      discoverClaudeCommand:
        'claude mcp add --transport http switchboard http://localhost:3000/mcp/discover --header "Authorization: Bearer <key>"',
    });
    // This workspace's principals only; granted nothing, both lists hold Switchboard's six tools alone.
    const { discoverBytes, principals } = body.toolLists;
    expect(principals.map((p) => p.name)).toEqual(["local-agent"]);
    expect(principals[0]).toMatchObject({ tools: 0, fullBytes: discoverBytes });
  });

  it("refuses malformed input with messages per field", async () => {
    const wrongType = await call("PUT", adminKey, { loopbackPrincipalId: 42 });
    expect(wrongType.status).toBe(400);
    const wrongTypeError = await errorOf(wrongType);
    expect(wrongTypeError.code).toBe("validation");
    expect(wrongTypeError.fieldErrors?.loopbackPrincipalId?.[0]).toMatch(/principal's id, or null/);

    const unknownField = await errorOf(await call("PUT", adminKey, { loopbackPrincipal: agent.id }));
    expect(unknownField.fieldErrors?.loopbackPrincipal).toEqual(['Unknown field "loopbackPrincipal".']);

    const empty = await errorOf(await call("PUT", adminKey, { loopbackPrincipalId: "  " }));
    expect(empty.fieldErrors?.loopbackPrincipalId?.[0]).toMatch(/principal's id/);

    // A principal of another workspace is no principal here.
    const foreign = await call("PUT", adminKey, { loopbackPrincipalId: otherAgent.id });
    expect(foreign.status).toBe(400);
    expect((await errorOf(foreign)).fieldErrors?.loopbackPrincipalId).toEqual([
      "There is no principal with that id in this workspace.",
    ]);
    expect((await settingsOf(await call("GET", adminKey))).loopbackPrincipal).toBeNull();
  });

  it("turns on for a principal, recording an audit entry and a policy.changed event on each change", async () => {
    const on = await call("PUT", adminKey, { loopbackPrincipalId: agent.id });
    expect(on.status).toBe(200);
    expect((await settingsOf(on)).loopbackPrincipal).toEqual({ id: agent.id, name: "local-agent" });
    expect((await settingsOf(await call("GET", adminKey))).loopbackPrincipal?.name).toBe("local-agent");

    const audit = await handle.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.tenantId, handle.defaultTenant.id),
          eq(auditEvents.action, "gateway.loopback_mapping_changed"),
        ),
      );
    expect(audit.at(-1)).toMatchObject({
      actorKind: "api_key",
      subject: agent.id,
      detail: "requests without a key from loopback act as local-agent",
    });
    const changes = async () =>
      (
        await handle.db
          .select({ data: events.data })
          .from(events)
          .where(and(eq(events.tenantId, handle.defaultTenant.id), eq(events.type, "policy.changed")))
      ).filter((e) => e.data.subject === "gateway").length;
    const before = await changes();

    // Saving the same value again changes nothing, so nothing is recorded.
    await call("PUT", adminKey, { loopbackPrincipalId: agent.id });
    expect(await changes()).toBe(before);

    // PUT semantics: leaving the field out turns the mapping off.
    const off = await call("PUT", adminKey, {});
    expect((await settingsOf(off)).loopbackPrincipal).toBeNull();
    expect(await changes()).toBe(before + 1);
    const [last] = await handle.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "gateway.loopback_mapping_changed"))
      .orderBy(auditEvents.createdAt)
      .then((rows) => rows.slice(-1));
    expect(last?.detail).toBe("off (was local-agent)");
  });

  it("lets one workspace of the installation hold the mapping: another's save is a 409", async () => {
    expect((await call("PUT", adminKey, { loopbackPrincipalId: agent.id })).status).toBe(200);
    const taken = await call("PUT", otherAdminKey, { loopbackPrincipalId: otherAgent.id });
    expect(taken.status).toBe(409);
    const error = await errorOf(taken);
    expect(error.code).toBe("conflict");
    expect(error.message).toMatch(/only one workspace can hold the mapping: turn it off there first/);
    // The other workspace is not named to this one's admins.
    expect(error.message).not.toMatch(/Default|local-agent/);
    expect((await settingsOf(await call("GET", otherAdminKey))).isLoopbackHeldElsewhere).toBe(true);
    // Off is always allowed, and once the first lets go the second may take it.
    expect((await call("PUT", otherAdminKey, { loopbackPrincipalId: null })).status).toBe(200);
    expect((await call("PUT", adminKey, { loopbackPrincipalId: null })).status).toBe(200);
    const now = await call("PUT", otherAdminKey, { loopbackPrincipalId: otherAgent.id });
    expect((await settingsOf(now)).loopbackPrincipal?.name).toBe("other-agent");
    expect((await settingsOf(await call("GET", adminKey))).isLoopbackHeldElsewhere).toBe(true);
  });

  it("is refused on save and ignored per request when Switchboard's socket listens beyond loopback", async () => {
    expect((await call("PUT", adminKey, { loopbackPrincipalId: agent.id })).status).toBe(200);
    // HOST says nothing any more: `next start -H 0.0.0.0` kept HOST at 127.0.0.1.
    vi.stubEnv("HOST", "127.0.0.1");
    recordListeningAddresses(["0.0.0.0"]);

    const refused = await call("PUT", adminKey, { loopbackPrincipalId: agent.id });
    expect(refused.status).toBe(403);
    const error = await errorOf(refused);
    expect(error.code).toBe("policy_denied");
    expect(error.message).toMatch(/listens on 0\.0\.0\.0, which other machines can reach/);
    expect(error.fieldErrors?.loopbackPrincipalId?.[0]).toBe(error.message);

    const settings = await settingsOf(await call("GET", adminKey));
    expect(settings.canMapLoopback).toBe(false);
    expect(settings.loopbackUnavailableReason).toMatch(/Start Switchboard with HOST=127\.0\.0\.1/);
    await expect(authenticateGateway(handle.db, anonymousHeaders())).rejects.toMatchObject({ status: 401 });

    // Started without server.mjs (next start, next dev), nobody can tell where a request came from.
    recordListeningAddresses(null);
    expect((await settingsOf(await call("GET", adminKey))).loopbackUnavailableReason).toMatch(
      /not started by its own server \(npm run serve, server\.mjs\)/,
    );
    await expect(authenticateGateway(handle.db, anonymousHeaders())).rejects.toMatchObject({ status: 401 });

    // Turning it off stays possible.
    expect((await call("PUT", adminKey, { loopbackPrincipalId: null })).status).toBe(200);
    vi.unstubAllEnvs();
    vi.stubEnv("SWITCHBOARD_SECRET_KEY", secretKey);
  });

  it("turns off when its principal is deleted, and the workspace no longer blocks others", async () => {
    const doomed = await createPrincipal(handle.db, {
      tenantId: handle.defaultTenant.id,
      input: { name: "doomed-agent" },
      by: null,
    });
    expect((await call("PUT", adminKey, { loopbackPrincipalId: doomed.id })).status).toBe(200);
    expect((await authenticateGateway(handle.db, anonymousHeaders())).principalName).toBe("doomed-agent");

    await deletePrincipal(handle.db, { tenantId: handle.defaultTenant.id, id: doomed.id, by: null });
    expect((await settingsOf(await call("GET", adminKey))).loopbackPrincipal).toBeNull();
    await expect(authenticateGateway(handle.db, anonymousHeaders())).rejects.toBeInstanceOf(GatewayRefusal);
    expect((await call("PUT", otherAdminKey, { loopbackPrincipalId: otherAgent.id })).status).toBe(200);
  });

  describe("authenticateGateway", () => {
    let agentKey: string;
    beforeAll(async () => {
      agentKey = (
        await createTestAgent(handle.db, { tenantId: handle.defaultTenant.id, name: "keyed-agent" })
      ).key;
    });

    it("refuses a request without a key while the mapping is off (401 with a challenge)", async () => {
      const refusal = await authenticateGateway(handle.db, anonymousHeaders()).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(GatewayRefusal);
      expect(refusal).toMatchObject({
        status: 401,
        headers: { "WWW-Authenticate": 'Bearer realm="switchboard"' },
      });
    });

    it("maps a request without a key to the chosen principal; a key always wins; a bad key stays 401", async () => {
      await call("PUT", adminKey, { loopbackPrincipalId: agent.id });
      expect(await authenticateGateway(handle.db, anonymousHeaders())).toEqual({
        tenantId: handle.defaultTenant.id,
        principalId: agent.id,
        principalName: "local-agent",
      });
      // A dashboard cookie is no key: the request still acts as the mapped principal, not the operator.
      expect(
        (await authenticateGateway(handle.db, anonymousHeaders({ cookie: "better-auth.session_token=x" })))
          .principalName,
      ).toBe("local-agent");
      // Any loopback peer is this machine, however its socket spells the address.
      for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2"]) {
        expect((await authenticateGateway(handle.db, anonymousHeaders({}, peer))).principalName).toBe(
          "local-agent",
        );
      }
      expect(
        (await authenticateGateway(handle.db, new Headers({ authorization: `Bearer ${agentKey}` })))
          .principalName,
      ).toBe("keyed-agent");
      await expect(
        authenticateGateway(handle.db, new Headers({ authorization: "Bearer sb_not-a-real-key-0000000000" })),
      ).rejects.toMatchObject({ status: 401 });
      await expect(
        authenticateGateway(handle.db, new Headers({ "x-api-key": adminKey })),
      ).rejects.toMatchObject({
        status: 403,
      });
    });

    it("ignores the mapping for a peer elsewhere, a forwarded request, or one that bypassed server.mjs", async () => {
      await call("PUT", adminKey, { loopbackPrincipalId: agent.id });
      // A reverse proxy on this machine (not a trusted proxy): whatever it names, even loopback.
      const forwardings: Array<Record<string, string>> = [
        { "x-forwarded-for": "127.0.0.1" },
        { "x-forwarded-for": "203.0.113.7" },
        { forwarded: "for=127.0.0.1" },
        { "x-forwarded-host": "localhost:3000" },
      ];
      for (const forwarded of forwardings) {
        await expect(authenticateGateway(handle.db, anonymousHeaders(forwarded))).rejects.toMatchObject({
          status: 401,
        });
      }
      // Another machine, however it dresses up.
      for (const peer of ["192.0.2.2", "::ffff:10.0.0.8", "fd00::2"]) {
        await expect(
          authenticateGateway(handle.db, anonymousHeaders({ "x-forwarded-for": "127.0.0.1" }, peer)),
        ).rejects.toMatchObject({ status: 401 });
      }
      // No header from server.mjs, or one a client wrote: a client cannot name its own peer.
      await expect(
        authenticateGateway(handle.db, new Headers({ "x-forwarded-for": "127.0.0.1" })),
      ).rejects.toMatchObject({ status: 401 });
      await expect(
        authenticateGateway(handle.db, new Headers({ "x-switchboard-connection": "127.0.0.1" })),
      ).rejects.toMatchObject({ status: 401 });
    });

    it("believes a proxy listed in SWITCHBOARD_TRUSTED_PROXIES about the client it names", async () => {
      await call("PUT", adminKey, { loopbackPrincipalId: agent.id });
      vi.stubEnv("SWITCHBOARD_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8");
      try {
        // The proxy on this machine relays a local client…
        const local = anonymousHeaders({ "x-forwarded-for": "127.0.0.1" });
        expect((await authenticateGateway(handle.db, local)).principalName).toBe("local-agent");
        // …or someone far away, whatever that someone put in front (the proxy appends the real peer).
        for (const chain of ["203.0.113.7", "127.0.0.1, 203.0.113.7", "127.0.0.1, 203.0.113.7, 10.1.2.3"]) {
          await expect(
            authenticateGateway(handle.db, anonymousHeaders({ "x-forwarded-for": chain })),
          ).rejects.toMatchObject({ status: 401 });
        }
        // A trusted proxy that names nobody relays for someone unknown.
        await expect(authenticateGateway(handle.db, anonymousHeaders())).rejects.toMatchObject({
          status: 401,
        });
      } finally {
        vi.stubEnv("SWITCHBOARD_TRUSTED_PROXIES", "");
      }
    });

    it("lets an unauthenticated MCP client initialize through /mcp only while the mapping is on", async () => {
      const initialize = () =>
        handleGatewayRequest(
          new Request(`${BASE}/mcp`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              ...connectionHeader("127.0.0.1"),
            },
            body: JSON.stringify(initializeRequest("no-headers")),
          }),
          { scope: "all" },
        );
      expect((await initialize()).status).toBe(401);
      await call("PUT", adminKey, { loopbackPrincipalId: agent.id });
      const mapped = await initialize();
      expect(mapped.status).toBe(200);
      expect((await jsonRpcResult(mapped)).serverInfo.name).toBe("switchboard");
    });
  });
});

describe("gateway settings on PostgreSQL: concurrent saves from two workspaces", () => {
  let handle: DatabaseHandle;
  afterAll(async () => {
    await handle?.close();
  });

  it("lets exactly one of two simultaneous saves take the mapping", async () => {
    handle = await openTestDatabase("postgres");
    const tenantIds = await Promise.all(
      ["race-a", "race-b"].map(async (slug) => {
        const [row] = await handle.db.insert(tenants).values({ slug, name: slug }).returning();
        return row?.id ?? "";
      }),
    );
    const saves = await Promise.allSettled(
      tenantIds.map(async (tenantId) => {
        const principal = await createPrincipal(handle.db, { tenantId, input: { name: "racer" }, by: null });
        const [tenant] = await handle.db.select().from(tenants).where(eq(tenants.id, tenantId));
        if (!tenant) throw new Error("no tenant");
        const actor: Actor = {
          kind: "api_key",
          keyId: "test",
          keyName: "test",
          personId: null,
          tenant,
          scopes: ["admin"],
          principalId: null,
          role: "admin",
          instanceOwner: false,
        };
        return putGatewaySettings(handle.db, {
          tenantId,
          input: { loopbackPrincipalId: principal.id },
          actor,
        });
      }),
    );
    expect(saves.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    const rejected = saves.find((s) => s.status === "rejected");
    expect((rejected as PromiseRejectedResult | undefined)?.reason).toMatchObject({ code: "conflict" });
  });
});
