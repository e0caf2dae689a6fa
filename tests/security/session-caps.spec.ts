import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { securitySessionCaps } from "../../playwright.config";
import { initializeRequest } from "../fixtures/mcp-messages";
import { changeInstancePolicy, expect, joinAs, test } from "./fixtures";

/*
 * The attack: the gateway kept one cap of sessions for the whole process, and the longest idle
 * made room for a new one whoever it belonged to. A principal of workspace B opened sessions in a
 * loop and workspace A's session was gone (404). Now each principal and each workspace has a cap
 * of its own, and a new session only ever pushes out an idle session of the same principal or
 * workspace; when none is idle, it is refused (429) with the cap that refused it.
 *
 * The security server runs with small caps (playwright.config.ts), so tens of sessions show it.
 */

const initialize = initializeRequest("caps");

type Opened = { status: number; sessionId: string | null; body: string };

test("B's principals opening more sessions than the caps push out only B's own; A's session keeps working", async ({
  owner,
  browser,
  baseURL,
}) => {
  const gateway = new URL("/mcp", baseURL);
  const restorePolicy = await changeInstancePolicy(owner, (policy) => {
    policy.workspaceCreation = "members";
  });
  const cleanup: Array<() => Promise<unknown>> = [restorePolicy];
  let member: BrowserContext | undefined;
  try {
    // Workspace A: one agent with one idle session.
    const agentA = await createPrincipal(owner, "caps-a-agent", {});
    cleanup.unshift(() => owner.delete(`/api/v1/principals/${agentA.id}`));
    const sessionA = await openSession(gateway, agentA.key);
    expect(sessionA.status, sessionA.body).toBe(200);
    expect(sessionA.sessionId).toBeTruthy();

    // Workspace B, made by a member who becomes its admin, with two agents.
    member = await joinAs(browser, owner, {
      name: "Sam Sessions",
      email: `sam-sessions-${Date.now()}@example.com`,
      role: "viewer",
    });
    const asMember = { headers: { Origin: new URL(baseURL as string).origin } };
    const created = await member.request.post("/api/v1/workspaces", {
      data: { name: `Sessions B ${Date.now()}` },
      ...asMember,
    });
    expect(created.status(), await created.text()).toBe(201);
    const { workspace } = (await created.json()) as { workspace: { id: string } };
    await member.addCookies([{ name: "switchboard_workspace", value: workspace.id, url: baseURL as string }]);
    const b1 = await createPrincipal(member.request, "caps-b-one", asMember);
    const b2 = await createPrincipal(member.request, "caps-b-two", asMember);
    const b3 = await createPrincipal(member.request, "caps-b-three", asMember);

    // The flood: more sessions than the instance-wide cap, from B alone.
    const flood = securitySessionCaps.perProcess + 10;
    const openedByB: string[] = [];
    for (let i = 0; i < flood; i++) {
      const opened = await openSession(gateway, i % 2 === 0 ? b1.key : b2.key);
      expect(opened.status, opened.body).toBe(200);
      openedByB.push(opened.sessionId as string);
    }

    // A never noticed.
    const streamA = await openStream(gateway, agentA.key, sessionA.sessionId as string);
    expect(streamA.status, "workspace A's session after B's flood").toBe(200);
    streamA.stop();
    // B did: its own oldest sessions made room, its newest work.
    const oldestB = await openStream(gateway, b1.key, openedByB[0] as string);
    expect(oldestB.status).toBe(404);
    oldestB.stop();
    const newestB = await openStream(gateway, b2.key, openedByB.at(-1) as string);
    expect(newestB.status).toBe(200);
    newestB.stop();

    // Beyond its cap, with every session of B3 busy (an open stream each), a new one is refused.
    const busy: Array<{ id: string; stop: () => void }> = [];
    for (let i = 0; i < securitySessionCaps.perPrincipal; i++) {
      const opened = await openSession(gateway, b3.key);
      expect(opened.status, opened.body).toBe(200);
      const stream = await openStream(gateway, b3.key, opened.sessionId as string);
      expect(stream.status).toBe(200);
      busy.push({ id: opened.sessionId as string, stop: stream.stop });
    }
    const refused = await openSession(gateway, b3.key);
    expect(refused.status, refused.body).toBe(429);
    expect(refused.sessionId).toBeNull();
    expect(JSON.parse(refused.body).error.message).toMatch(
      /at most \d+ gateway sessions per principal.*SWITCHBOARD_MCP_MAX_SESSIONS_PER_PRINCIPAL/,
    );
    for (const session of busy) {
      await endSession(gateway, b3.key, session.id);
      session.stop();
    }

    // Each eviction is recorded in B, naming whose session it was and the cap; none in A.
    const evictedInB = await member.request.get("/api/v1/events?type=gateway.session_evicted&limit=200");
    expect(evictedInB.status(), await evictedInB.text()).toBe(200);
    const eventsB = ((await evictedInB.json()) as { events: Array<Record<string, unknown>> }).events;
    expect(eventsB.length).toBeGreaterThanOrEqual(flood - securitySessionCaps.perWorkspace);
    for (const event of eventsB) {
      expect(["caps-b-one", "caps-b-two", "caps-b-three"]).toContain(event.principalName);
      expect(["principal", "workspace", "process"]).toContain(event.cap);
    }
    const evictedInA = await owner.get("/api/v1/events?type=gateway.session_evicted&limit=200");
    const eventsA = ((await evictedInA.json()) as { events: Array<Record<string, unknown>> }).events;
    expect(eventsA.filter((event) => event.principalName === "caps-a-agent")).toEqual([]);
  } finally {
    for (const step of cleanup) await step();
    await member?.close();
  }
});

async function createPrincipal(
  api: APIRequestContext,
  name: string,
  options: { headers?: Record<string, string> },
): Promise<{ id: string; key: string }> {
  const created = await api.post("/api/v1/principals", { data: { name }, ...options });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { principal: { id: string } }).principal.id;
  const granted = await api.put(`/api/v1/principals/${id}/grants`, { data: { patterns: ["*"] }, ...options });
  expect(granted.status(), await granted.text()).toBe(200);
  const made = await api.post(`/api/v1/principals/${id}/keys`, { data: { name: "caps" }, ...options });
  expect(made.status(), await made.text()).toBe(201);
  return { id, key: ((await made.json()) as { key: string }).key };
}

const mcpHeaders = (key: string, sessionId?: string): Record<string, string> => ({
  Authorization: `Bearer ${key}`,
  Accept: "application/json, text/event-stream",
  "Content-Type": "application/json",
  ...(sessionId ? { "Mcp-Session-Id": sessionId } : {}),
});

async function openSession(gateway: URL, key: string): Promise<Opened> {
  const response = await fetch(gateway, {
    method: "POST",
    headers: mcpHeaders(key),
    body: JSON.stringify(initialize),
  });
  return {
    status: response.status,
    sessionId: response.headers.get("mcp-session-id"),
    body: await response.text(),
  };
}

/** GET: the session's event stream — 200 while the session lives, 404 once it is gone. */
async function openStream(
  gateway: URL,
  key: string,
  sessionId: string,
): Promise<{ status: number; stop: () => void }> {
  const controller = new AbortController();
  const response = await fetch(gateway, {
    headers: { ...mcpHeaders(key, sessionId), Accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (response.status !== 200) await response.text();
  return {
    status: response.status,
    stop: () => {
      response.body?.cancel().catch(() => {});
      controller.abort();
    },
  };
}

async function endSession(gateway: URL, key: string, sessionId: string): Promise<void> {
  const response = await fetch(gateway, { method: "DELETE", headers: mcpHeaders(key, sessionId) });
  await response.text();
  expect(response.status).toBe(200);
}
