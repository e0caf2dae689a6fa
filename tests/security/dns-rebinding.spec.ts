import type { APIRequestContext } from "@playwright/test";
import type { EgressPolicy } from "@/lib/policy/egress-schema";
import { securityDnsPort } from "../../playwright.config";
import { createAgent } from "../e2e/agents";
import { expect, test } from "./fixtures";
import { startDnsServer, type TestDnsServer } from "./fixtures/dns-server";
import { startRebindListeners } from "./fixtures/rebind-servers";

/*
 * The attack: a server registered at rebind.test, which resolved to an address the egress policy
 * allows when it was checked, answered from 127.0.0.1 once the name re-resolved — and Switchboard
 * delivered its `Authorization: Bearer <secret>` to the loopback service, recording the call as a
 * success. The check resolved once; fetch resolved again for every request.
 *
 * Reproduced with a DNS server of the test's own (the security server resolves through it,
 * SWITCHBOARD_DNS_SERVERS), the allowed MCP server on 127.0.0.2 (the one address the workspace
 * allows on this machine) and a loopback service on 127.0.0.1 at the same port, which records every
 * request it gets. Both listeners close each connection, so every request asks DNS again.
 */

const secret = "rebind-bearer-0f1e2d3c4b5a69788796a5b4";

let dns: TestDnsServer;
test.beforeAll(async () => {
  dns = await startDnsServer(securityDnsPort);
});
test.afterAll(async () => {
  await dns.close();
});

/** Narrows the workspace's egress policy to: no loopback, except 127.0.0.2. Returns the restore. */
async function allowOnly127002(owner: APIRequestContext): Promise<() => Promise<void>> {
  const before = ((await (await owner.get("/api/v1/policy/egress")).json()) as { policy: EgressPolicy })
    .policy;
  const narrowed = structuredClone(before);
  narrowed.http.allowedSchemes = ["https", "http"];
  narrowed.http.allowLoopback = false;
  narrowed.http.allowAddresses = ["127.0.0.2"];
  const saved = await owner.put("/api/v1/policy/egress", { data: narrowed });
  expect(saved.status(), await saved.text()).toBe(200);
  return async () => {
    const restored = await owner.put("/api/v1/policy/egress", { data: before });
    expect(restored.status(), await restored.text()).toBe(200);
  };
}

type Call = { id: string; status: string; error: { code: string; message: string } | null; result: unknown };

async function callWhoami(agent: APIRequestContext, tool: string): Promise<Call> {
  const response = await agent.post("/api/v1/calls", { data: { tool, arguments: {} } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { call: Call }).call;
}

for (const transport of ["streamable-http", "sse"] as const) {
  test(`${transport}: a name that re-resolves to 127.0.0.1 after the check never gets the bearer token there`, async ({
    owner,
    playwright,
    baseURL,
  }) => {
    const name = `rebind-${transport === "sse" ? "sse" : "http"}`;
    const tool = `${name}__whoami`;
    const listeners = await startRebindListeners();
    const restorePolicy = await allowOnly127002(owner);
    dns.answer("rebind.test", "127.0.0.2");
    let agent: APIRequestContext | undefined;
    try {
      const stored = await owner.put(`/api/v1/secrets/${name}-token`, { data: { value: secret } });
      expect(stored.status(), await stored.text()).toBeLessThan(300);
      const registered = await owner.post("/api/v1/servers", {
        data: {
          name,
          transport,
          url: `http://rebind.test:${listeners.port}/${transport === "sse" ? "sse" : "mcp"}`,
          auth: { type: "bearer", credential: { secret: `${name}-token` } },
          callTimeoutMs: 5000,
        },
      });
      expect(registered.status(), await registered.text()).toBe(201);
      await expect
        .poll(
          async () =>
            ((await (await owner.get(`/api/v1/servers/${name}`)).json()) as { server: { status: string } })
              .server.status,
          { timeout: 30_000, message: `${name} connects to the allowed address` },
        )
        .toBe("ready");
      const { tools } = (await (await owner.get(`/api/v1/tools?q=${tool}`)).json()) as {
        tools: Array<{ id: string; gatewayName: string }>;
      };
      const whoami = tools.find((t) => t.gatewayName === tool);
      expect(whoami, "the tool was discovered").toBeDefined();
      await owner.patch(`/api/v1/tools/${whoami?.id}`, { data: { effect: "read" } });
      ({ agent } = await createAgent(owner, playwright, {
        baseURL,
        name: `${name}-agent-${Date.now()}`,
        patterns: [tool],
      }));

      // While the name resolves to the allowed address, calls work and reach that server.
      const first = await callWhoami(agent, tool);
      expect(first.status, JSON.stringify(first)).toBe("succeeded");
      expect(JSON.stringify(first.result)).toContain("answered by the allowed server");
      expect(listeners.allowed.seen.some((r) => r.authorization === `Bearer ${secret}`)).toBe(true);

      // The attacker's DNS now answers 127.0.0.1.
      dns.answer("rebind.test", "127.0.0.1");
      const queriesBefore = dns.queries("rebind.test");
      const second = await callWhoami(agent, tool);

      // The loopback service never hears from Switchboard: no token, no request at all.
      expect(listeners.loopback.seen).toEqual([]);
      // Switchboard did ask DNS again (the new answer was judged, not missed).
      expect(dns.queries("rebind.test")).toBeGreaterThan(queriesBefore);
      // The call is not a success, and says why.
      expect(second.status, JSON.stringify(second)).toBe("failed");
      expect(second.error?.message).toMatch(
        /rebind\.test resolved to 127\.0\.0\.1, refused by egress \(loopback\)/,
      );
      // The server shows the refusal as its last error.
      await expect
        .poll(
          async () => {
            const diagnostics = (await (await owner.get(`/api/v1/servers/${name}/diagnostics`)).json()) as {
              lastError?: { message: string };
            };
            return diagnostics.lastError?.message ?? "";
          },
          { timeout: 15_000, message: "the egress refusal as the server's last error" },
        )
        .toMatch(/rebind\.test"? resolve[sd] (to )?127\.0\.0\.1.*(refused by egress|loopback address)/);
      const history = (await (await owner.get(`/api/v1/calls/${second.id}`)).json()) as { call: Call };
      expect(history.call.status).toBe("failed");
    } finally {
      await agent?.dispose();
      await owner.delete(`/api/v1/servers/${name}`);
      await owner.delete(`/api/v1/secrets/${name}-token`);
      await restorePolicy();
      await listeners.allowed.close();
      await listeners.loopback.close();
    }
  });
}
