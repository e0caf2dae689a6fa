import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listDeliveriesRoute } from "@/app/api/v1/webhooks/[id]/deliveries/route";
import { DELETE as deleteWebhookRoute, PATCH as patchWebhookRoute } from "@/app/api/v1/webhooks/[id]/route";
import { POST as testWebhookRoute } from "@/app/api/v1/webhooks/[id]/test/route";
import { GET as listWebhooksRoute, POST as postWebhookRoute } from "@/app/api/v1/webhooks/route";
import { auditEvents, webhookDeliveries } from "@/db/schema";
import type { DatabaseDriver } from "@/lib/db/client";
import type { SwitchboardEvent } from "@/lib/events/event-types";
import { recordEvent } from "@/lib/events/record-event";
import { putEgressPolicy } from "@/lib/policy/egress-policy-store";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { WebhookWorker } from "@/lib/webhooks/delivery-worker";
import { createTestApiKey, drivers, openProcessTestDatabase } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { bearer, type Json, senderAs } from "../fixtures/route-request";

/*
 * Webhooks end to end: an admin adds one over REST, events become signed deliveries a real HTTP
 * receiver verifies, a failing receiver is retried with its failures on record, the egress policy
 * refuses a private address at creation and at delivery, and neither the URL nor the secret is
 * ever read back.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/** A local receiver: records every request; a path's planned answers come first, then 200. */
async function startReceiver() {
  const received: Received[] = [];
  const plans = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body });
      const status = plans.get(path)?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    plan: (path: string, statuses: number[]) => plans.set(path, [...statuses]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const call = {
  callId: "call-1",
  kind: "tool_call" as const,
  serverId: "srv-1",
  serverName: "files",
  tool: "files__delete",
  effect: "destructive" as const,
  requester: { kind: "principal" as const, id: "p-1", name: "build-bot" },
};

describe.each(drivers)("webhooks (%s)", (driver: DatabaseDriver) => {
  let handle: ProcessDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let key = "";
  const send = senderAs(() => bearer(key));
  const workers: WebhookWorker[] = [];
  const startWorker = (retrySeconds: number[] = [0.2, 0.2]) => {
    const worker = new WebhookWorker(handle.db, { retrySeconds, pollMs: 100, timeoutMs: 5_000 });
    worker.start();
    workers.push(worker);
    return worker;
  };
  const record = (event: SwitchboardEvent) =>
    recordEvent(handle.db, { tenantId: handle.defaultTenant.id, event });
  const createHook = (body: Json) => send(postWebhookRoute, "/api/v1/webhooks", { method: "POST", body });
  const deliveriesOf = async (id: string) => {
    const res = await send(listDeliveriesRoute, `/api/v1/webhooks/${id}/deliveries`, { params: { id } });
    expect(res.status).toBe(200);
    return res.body.deliveries as Json[];
  };

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    key = await createTestApiKey(handle, ["admin"]);
    receiver = await startReceiver();
    await putEgressPolicy(handle.db, {
      tenantId: handle.defaultTenant.id,
      input: { http: { allowedSchemes: ["http", "https"], allowLoopback: true } },
    });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });
  afterAll(async () => {
    await receiver?.close();
    await handle?.close();
  });

  it("delivers signed requested and decided events to a generic receiver, once each", async () => {
    const created = await createHook({
      name: "Approvals bot",
      url: receiver.url("/generic?token=abcdefgh"),
      format: "generic",
      events: ["approval.requested", "approval.decided"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const id = created.body.webhook.id as string;

    // Read back: the URL masked, the secret nowhere.
    const listed = await send(listWebhooksRoute, "/api/v1/webhooks");
    const text = JSON.stringify(listed.body);
    expect(listed.body.webhooks).toHaveLength(1);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("token=abcdefgh");
    expect(listed.body.webhooks[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…efgh$/);

    // Two workers stand for two processes seeing the same events: still one delivery each.
    startWorker();
    startWorker();
    await record({
      ...call,
      type: "call.approval_required",
      reason: "destructive tools need approval",
      expiresAt: "2030-01-01T00:00:00.000Z",
    });
    await record({ ...call, type: "call.approved", decidedBy: "ada", reason: "fine" });
    await record({ ...call, type: "call.started" }); // not subscribed to anything: never sent
    // A sentinel after them: once it arrives, nothing else is on its way.
    await record({ ...call, callId: "call-2", type: "call.denied", decidedBy: "ada", reason: "sentinel" });
    const all = await eventually(async () => {
      const got = receiver.at("/generic?token=abcdefgh");
      return got.length >= 3 ? got : undefined;
    }, "three deliveries");
    await eventually(
      async () => ((await deliveriesOf(id)).every((d) => d.status === "delivered") ? true : undefined),
      "delivered rows",
    );
    expect(receiver.at("/generic?token=abcdefgh")).toHaveLength(3);

    const bodies = all.map((r) => JSON.parse(r.body) as Json);
    expect(bodies.map((b) => b.type).sort()).toEqual([
      "approval.decided",
      "approval.decided",
      "approval.requested",
    ]);
    const requested = bodies.find((b) => b.type === "approval.requested");
    expect(requested).toMatchObject({
      workspace: { id: handle.defaultTenant.id },
      data: {
        callId: "call-1",
        tool: "files__delete",
        reason: "destructive tools need approval",
        requester: { name: "build-bot" },
      },
    });
    expect(requested?.data.url).toMatch(/\/approvals$/);
    const decided = bodies.find((b) => b.type === "approval.decided" && b.data.callId === "call-1");
    expect(decided?.data).toMatchObject({ decision: "approved", decidedBy: "ada" });

    for (const delivery of all) {
      const timestamp = Number(delivery.headers["x-switchboard-timestamp"]);
      // The receiver's checks, as the README tells them: a fresh timestamp and the HMAC over both.
      expect(Math.abs(Date.now() / 1000 - timestamp)).toBeLessThan(300);
      const expected = createHmac("sha256", secret).update(`${timestamp}.${delivery.body}`).digest("hex");
      expect(delivery.headers["x-switchboard-signature"]).toBe(`v1=${expected}`);
      expect(delivery.headers["x-switchboard-event"]).toBe(JSON.parse(delivery.body).type);
      expect(delivery.headers["x-switchboard-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
      // Signed with another secret, or another time, the receiver's check fails.
      const forged = createHmac("sha256", "whsec_other")
        .update(`${timestamp}.${delivery.body}`)
        .digest("hex");
      expect(delivery.headers["x-switchboard-signature"]).not.toBe(`v1=${forged}`);
    }
    await send(deleteWebhookRoute, `/api/v1/webhooks/${id}`, { method: "DELETE", params: { id } });
  });

  it("retries a receiver that fails, shows each failure, and delivers once it answers", async () => {
    const path = "/flaky";
    receiver.plan(path, [500, 503]);
    const created = await createHook({
      name: "Flaky",
      url: receiver.url(path),
      format: "generic",
      events: ["approval.expired"],
    });
    const id = created.body.webhook.id as string;
    startWorker([0.2, 0.2, 0.2]);
    const test = await send(testWebhookRoute, `/api/v1/webhooks/${id}/test`, {
      method: "POST",
      params: { id },
    });
    expect(test.status).toBe(202);
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(id);
      return rows[0]?.status === "delivered" ? rows : undefined;
    }, "the test delivery to succeed");
    expect(delivery?.type).toBe("webhook.test");
    expect(delivery?.attempts.map((a: Json) => a.status)).toEqual([500, 503, 200]);
    expect(delivery?.attempts[0].error).toMatch(/HTTP 500/);
    expect(delivery?.nextAttemptAt).toBeNull();
    // The same delivery id on every attempt: the receiver can drop duplicates.
    const ids = new Set(receiver.at(path).map((r) => r.headers["x-switchboard-delivery"]));
    expect(receiver.at(path)).toHaveLength(3);
    expect(ids.size).toBe(1);
  });

  it("gives up after the last retry and says why; a Slack webhook gets a Slack message", async () => {
    receiver.plan("/down", [500, 500, 500]);
    const down = await createHook({
      name: "Down",
      url: receiver.url("/down"),
      format: "generic",
      events: ["approval.requested"],
    });
    const slack = await createHook({
      name: "Slack",
      url: receiver.url("/services/T000/B000/XXXXXXXXXXXX"),
      format: "slack",
      events: ["approval.requested"],
    });
    expect(slack.body.secret).toBeNull();
    startWorker([0.2]);
    await record({
      ...call,
      callId: "call-3",
      type: "call.approval_required",
      reason: "needs a <b>look</b>",
      expiresAt: "2030-01-01T00:00:00.000Z",
    });
    const [failed] = await eventually(async () => {
      const rows = await deliveriesOf(down.body.webhook.id);
      return rows[0]?.status === "failed" ? rows : undefined;
    }, "the delivery to fail");
    expect(failed?.attempts).toHaveLength(2);
    expect(failed?.attempts.every((a: Json) => a.status === 500 && /HTTP 500/.test(a.error))).toBe(true);

    const slackDelivery = await eventually(
      async () => receiver.at("/services/T000/B000/XXXXXXXXXXXX")[0],
      "the Slack message",
    );
    const message = JSON.parse(slackDelivery?.body ?? "{}") as Json;
    expect(message.text).toContain("build-bot asks to run files__delete");
    expect(message.blocks[0].text.text).toContain("needs a &lt;b&gt;look&lt;/b&gt;");
    expect(slackDelivery?.headers["x-switchboard-signature"]).toBeUndefined();
    const listed = await send(listWebhooksRoute, "/api/v1/webhooks");
    expect(JSON.stringify(listed.body)).not.toContain("XXXXXXXXXXXX");
    for (const hook of [down, slack]) {
      const hid = hook.body.webhook.id as string;
      await send(deleteWebhookRoute, `/api/v1/webhooks/${hid}`, { method: "DELETE", params: { id: hid } });
    }
  });

  it("refuses a private address the egress policy forbids, at creation and at delivery", async () => {
    const created = await createHook({
      name: "Local",
      url: receiver.url("/later-refused"),
      format: "generic",
      events: ["approval.requested"],
    });
    expect(created.status).toBe(201);
    await putEgressPolicy(handle.db, {
      tenantId: handle.defaultTenant.id,
      input: { http: { allowedSchemes: ["http", "https"] } },
    });
    try {
      const refused = await createHook({
        name: "Local 2",
        url: receiver.url("/refused"),
        format: "generic",
        events: ["approval.requested"],
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("policy_denied");
      expect(refused.body.error.message).toMatch(/egress policy/);
      const byName = await createHook({
        name: "Local 3",
        url: receiver.url("/refused").replace("127.0.0.1", "localhost"),
        format: "generic",
        events: ["approval.requested"],
      });
      expect(byName.status).toBe(403);

      // Saved while allowed, refused now: the attempt says so and the receiver hears nothing.
      const id = created.body.webhook.id as string;
      startWorker([]);
      await send(testWebhookRoute, `/api/v1/webhooks/${id}/test`, { method: "POST", params: { id } });
      const [failed] = await eventually(async () => {
        const rows = await deliveriesOf(id);
        return rows[0]?.status === "failed" ? rows : undefined;
      }, "the refused delivery");
      expect(failed?.attempts[0]).toMatchObject({ status: null });
      expect(failed?.attempts[0].error).toMatch(/egress policy|loopback/i);
      expect(receiver.at("/later-refused")).toHaveLength(0);
    } finally {
      await putEgressPolicy(handle.db, {
        tenantId: handle.defaultTenant.id,
        input: { http: { allowedSchemes: ["http", "https"], allowLoopback: true } },
      });
    }
  });

  it("answers bad input with 4xx, and audits every change", async () => {
    const bad = await createHook({ name: "", url: "ftp://x", format: "teams", events: [] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fieldErrors ?? {})).toEqual(
      expect.arrayContaining(["name", "url", "format", "events"]),
    );
    const missing = await send(listDeliveriesRoute, "/api/v1/webhooks/nope/deliveries", {
      params: { id: "nope" },
    });
    expect(missing.status).toBe(404);
    const created = await createHook({
      name: "Audited",
      url: receiver.url("/audited"),
      format: "generic",
      events: ["server.attention"],
    });
    const id = created.body.webhook.id as string;
    const patched = await send(patchWebhookRoute, `/api/v1/webhooks/${id}`, {
      method: "PATCH",
      params: { id },
      body: { enabled: false },
    });
    expect(patched.body.webhook.enabled).toBe(false);
    expect(
      (await send(deleteWebhookRoute, `/api/v1/webhooks/${id}`, { method: "DELETE", params: { id } })).status,
    ).toBe(204);
    const actions = (
      await handle.db.select().from(auditEvents).where(eq(auditEvents.subject, "Audited"))
    ).map((e) => e.action);
    expect(actions.sort()).toEqual(["webhook.created", "webhook.deleted", "webhook.updated"]);
    expect(
      await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id)),
    ).toHaveLength(0);
  });
});
