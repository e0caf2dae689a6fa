import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { securityOwnerKey } from "../../playwright.config";
import { createAgent } from "../e2e/agents";
import { errorOf, expect, joinAs, test } from "./fixtures";

/*
 * The attack: with "no self-approval" on, an admin's own playground call was refused when she
 * approved it in the dashboard, and approved when she sent the same request with her own API key
 * — the rule compared who was signed in, not who was behind it. Now it compares people: a key is
 * its creator, and a principal calling with a key a person made has that person behind it.
 */

// Left unclassified at first run (external-write): every call of it waits for a person.
const TOOL = "local-tools__write_note";

test("a new workspace forbids self-approval from the start", async ({ owner }) => {
  // The security server's workspace was created at its first start: a new workspace.
  const read = await owner.get("/api/v1/policy/approvals");
  expect(read.status()).toBe(200);
  expect(((await read.json()) as { policy: { forbidSelfApproval: boolean } }).policy.forbidSelfApproval).toBe(
    true,
  );
});

test.describe("with no self-approval on", () => {
  let ana: BrowserContext;
  let bob: BrowserContext;
  let anaKey: APIRequestContext;
  let restore: () => Promise<void>;

  test.beforeAll(async ({ browser, playwright, baseURL }) => {
    const owner = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${securityOwnerKey}` },
    });
    const before = ((await (await owner.get("/api/v1/policy/approvals")).json()) as { policy: object })
      .policy;
    const saved = await owner.put("/api/v1/policy/approvals", {
      data: { ...before, forbidSelfApproval: true },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    restore = async () => {
      await owner.put("/api/v1/policy/approvals", { data: before });
      await owner.dispose();
    };
    // The tool must be in the catalog (the demo server connects in the background).
    await expect
      .poll(
        async () =>
          (
            (await (await owner.get(`/api/v1/tools?q=${TOOL}`)).json()) as {
              tools: Array<{ gatewayName: string }>;
            }
          ).tools.map((t) => t.gatewayName),
        { timeout: 60_000 },
      )
      .toContain(TOOL);

    ana = await joinAs(browser, owner, {
      name: "Ana Admin",
      email: `ana-${Date.now()}@example.com`,
      role: "admin",
    });
    bob = await joinAs(browser, owner, {
      name: "Bob Admin",
      email: `bob-${Date.now()}@example.com`,
      role: "admin",
    });
    // Cookie-authenticated writes come from the dashboard's own origin, as a browser's would.
    for (const person of [ana, bob]) await person.setExtraHTTPHeaders({ Origin: baseURL as string });
    const created = await ana.request.post("/api/v1/api-keys", {
      data: { name: "ana's key", scopes: ["admin"] },
    });
    expect(created.status(), await created.text()).toBe(201);
    anaKey = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${((await created.json()) as { key: string }).key}` },
    });
  });

  test.afterAll(async () => {
    await anaKey?.dispose();
    await ana?.close();
    await bob?.close();
    await restore?.();
  });

  const approve = (as: APIRequestContext, callId: string) =>
    as.post(`/api/v1/approvals/${callId}/approve`, { data: {} });

  async function expectRefused(as: APIRequestContext, callId: string) {
    const refused = await approve(as, callId);
    expect(refused.status()).toBe(403);
    expect((await errorOf(refused)).message).toMatch(/approve (their|your) own calls/);
  }

  async function pendingCall(caller: APIRequestContext, text: string): Promise<string> {
    const response = await caller.post("/api/v1/calls", {
      data: { tool: TOOL, arguments: { title: "self-approval", text } },
    });
    expect(response.status(), await response.text()).toBe(202);
    const { call } = (await response.json()) as { call: { id: string; status: string } };
    expect(call.status).toBe("pending_approval");
    return call.id;
  }

  test("her own call: refused through her session and through her API key; another admin approves", async () => {
    const callId = await pendingCall(ana.request, "mine");
    await expectRefused(ana.request, callId);
    await expectRefused(anaKey, callId);
    const approved = await approve(bob.request, callId);
    expect(approved.status(), await approved.text()).toBe(200);
  });

  test("a principal's call with a key she made is hers as well", async ({ playwright, baseURL }) => {
    const { agent } = await createAgent(ana.request, playwright, {
      baseURL,
      name: `ana-agent-${Date.now()}`,
      patterns: [TOOL],
    });
    const callId = await pendingCall(agent, "through my agent");
    await expectRefused(ana.request, callId);
    await expectRefused(anaKey, callId);
    const approved = await approve(bob.request, callId);
    expect(approved.status(), await approved.text()).toBe(200);
    await agent.dispose();
  });
});
