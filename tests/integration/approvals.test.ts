import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as approveRoute } from "@/app/api/v1/approvals/[id]/approve/route";
import { POST as denyRoute } from "@/app/api/v1/approvals/[id]/deny/route";
import { GET as listApprovalsRoute } from "@/app/api/v1/approvals/route";
import { GET as getCallRoute } from "@/app/api/v1/calls/[id]/route";
import { GET as waitRoute } from "@/app/api/v1/calls/[id]/wait/route";
import { GET as listCallsRoute, POST as postCallRoute } from "@/app/api/v1/calls/route";
import { GET as getPolicyRoute, PUT as putPolicyRoute } from "@/app/api/v1/policy/approvals/route";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { createTestAgent, createTestApiKey, createTestOperator, drivers } from "../fixtures/databases";
import { bearer, type Json, sendTo } from "../fixtures/route-request";

/*
 * The REST face of governed calls: a call made over HTTP waits in the queue, an operator
 * decides it over HTTP, the caller picks up the result with /wait, and the call's page data has
 * its whole timeline. Real route handlers, real servers.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const cookie = (value: string) => ({ cookie: value });
describe.each(drivers)("calls and approvals over REST on %s", (driver) => {
  let world: CallsWorld;
  let agentKey: Record<string, string>;
  const token = () => `t-${randomBytes(6).toString("hex")}`;
  const postCall = (headers: Record<string, string>, body: unknown) =>
    sendTo(postCallRoute, "/api/v1/calls", { method: "POST", headers, body });

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    agentKey = bearer(world.agent.key);
  });
  afterAll(async () => {
    await world?.close();
  });

  it("a call over REST waits in the queue, is approved over REST, and /wait hands over the result", async () => {
    const t = token();
    const posted = await postCall(agentKey, { tool: "fixture__record", arguments: { token: t } });
    expect(posted.status).toBe(202);
    const callId = posted.body.call.id as string;
    expect(posted.headers.get("location")).toBe(`/api/v1/calls/${callId}`);
    expect(posted.body.call).toMatchObject({
      status: "pending_approval",
      tool: "fixture__record",
      arguments: { token: t },
    });

    const queue = await sendTo(listApprovalsRoute, "/api/v1/approvals?status=pending", {
      headers: cookie(world.approvers[0]?.cookie ?? ""),
    });
    expect(queue.status).toBe(200);
    const entry = queue.body.approvals.find((a: Json) => a.call.id === callId);
    expect(entry).toMatchObject({
      status: "pending",
      requiredBecause: expect.stringContaining("external-write"),
      call: {
        serverName: "fixture",
        toolName: "record",
        effect: "external-write",
        requester: { kind: "principal", name: "agent-007" },
        arguments: { token: t },
      },
    });

    const waiting = sendTo(waitRoute, `/api/v1/calls/${callId}/wait?timeoutSeconds=30`, {
      headers: agentKey,
      params: { id: callId },
    });
    const approved = await sendTo(approveRoute, `/api/v1/approvals/${entry.id}/approve`, {
      method: "POST",
      headers: cookie(world.approvers[0]?.cookie ?? ""),
      body: { reason: "ok for today" },
      params: { id: entry.id },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.approval).toMatchObject({
      status: "approved",
      reason: "ok for today",
      decidedBy: { kind: "operator", name: `approver-a-${driver}` },
    });

    const done = await waiting;
    expect(done.status).toBe(200);
    expect(done.body.call).toMatchObject({
      status: "succeeded",
      result: { content: [{ type: "text", text: `recorded ${t}` }] },
    });

    const again = await sendTo(denyRoute, `/api/v1/approvals/${entry.id}/deny`, {
      method: "POST",
      headers: cookie(world.approvers[1]?.cookie ?? ""),
      params: { id: entry.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: "conflict",
      message: expect.stringContaining(`already approved by approver-a-${driver}`),
    });

    const detail = await sendTo(getCallRoute, `/api/v1/calls/${callId}`, {
      headers: cookie(world.admin.cookie),
      params: { id: callId },
    });
    expect(detail.body.timeline.map((e: Json) => e.type)).toEqual([
      "call.requested",
      "call.approval_required",
      "call.approved",
      "call.started",
      "call.succeeded",
    ]);
    expect(detail.body.timeline[2].detail).toMatchObject({
      decidedBy: `approver-a-${driver}`,
      reason: "ok for today",
    });
    expect(world.recorded().filter((r) => r === t)).toHaveLength(1);
  });

  it("waits inside POST when asked, and returns the denial with its reason", async () => {
    const t = token();
    const posting = postCall(agentKey, { tool: "fixture__record", arguments: { token: t }, waitSeconds: 30 });
    let approvalId: string | undefined;
    for (let i = 0; i < 200 && !approvalId; i++) {
      const queue = await sendTo(listApprovalsRoute, "/api/v1/approvals", {
        headers: cookie(world.admin.cookie),
      });
      approvalId = queue.body.approvals.find((a: Json) => a.call.arguments.token === t)?.id;
      if (!approvalId) await new Promise((r) => setTimeout(r, 25));
    }
    const denied = await sendTo(denyRoute, `/api/v1/approvals/${approvalId}/deny`, {
      method: "POST",
      headers: cookie(world.approvers[1]?.cookie ?? ""),
      body: { reason: "wrong repository" },
      params: { id: approvalId ?? "" },
    });
    expect(denied.status).toBe(200);
    const done = await posting;
    expect(done.status).toBe(200);
    expect(done.body.call).toMatchObject({
      status: "denied",
      approval: { status: "denied", reason: "wrong repository" },
    });
    const history = await sendTo(listApprovalsRoute, "/api/v1/approvals?status=decided", {
      headers: cookie(world.admin.cookie),
    });
    expect(history.body.approvals[0]).toMatchObject({ id: approvalId, status: "denied" });
    expect(world.recorded()).not.toContain(t);
  });

  it("operators call as themselves; viewers may not; a self-approval is refused when the workspace says so", async () => {
    const viewer = await createTestOperator(world.handle, { email: "viewer@example.com", role: "viewer" });
    const refused = await postCall(cookie(viewer.cookie), {
      tool: "local-tools__echo",
      arguments: { text: "x" },
    });
    expect(refused.status).toBe(403);

    const policy = await sendTo(putPolicyRoute, "/api/v1/policy/approvals", {
      method: "PUT",
      headers: cookie(world.admin.cookie),
      body: { forbidSelfApproval: true },
    });
    expect(policy.body.policy).toEqual({
      requireApprovalFor: ["external-write", "destructive"],
      forbidSelfApproval: true,
      expirySeconds: 600,
    });
    const read = await sendTo(getPolicyRoute, "/api/v1/policy/approvals", { headers: cookie(viewer.cookie) });
    expect(read.body.policy.forbidSelfApproval).toBe(true);

    const t = token();
    const own = await postCall(cookie(world.admin.cookie), {
      tool: "fixture__record",
      arguments: { token: t },
    });
    expect(own.status).toBe(202);
    expect(own.body.call.requester).toMatchObject({ kind: "operator", id: world.admin.userId });
    const callId = own.body.call.id as string;
    // The id of the call works as well as the approval's.
    const self = await sendTo(approveRoute, `/api/v1/approvals/${callId}/approve`, {
      method: "POST",
      headers: cookie(world.admin.cookie),
      params: { id: callId },
    });
    expect(self.status).toBe(403);
    expect(self.body.error.message).toMatch(/own calls/);
    const byViewer = await sendTo(approveRoute, `/api/v1/approvals/${callId}/approve`, {
      method: "POST",
      headers: cookie(viewer.cookie),
      params: { id: callId },
    });
    expect(byViewer.status).toBe(403);
    const other = await sendTo(approveRoute, `/api/v1/approvals/${callId}/approve`, {
      method: "POST",
      headers: cookie(world.approvers[1]?.cookie ?? ""),
      params: { id: callId },
    });
    expect(other.status).toBe(200);
    await sendTo(putPolicyRoute, "/api/v1/policy/approvals", {
      method: "PUT",
      headers: cookie(world.admin.cookie),
      body: {},
    });
  });

  it("lets a principal read only its own calls, and an admin key decide", async () => {
    const { key } = await createTestAgent(world.handle.db, { tenantId: world.tenantId, name: "other-agent" });
    const t = token();
    const posted = await postCall(agentKey, { tool: "fixture__record", arguments: { token: t } });
    const callId = posted.body.call.id as string;
    const foreign = await sendTo(getCallRoute, `/api/v1/calls/${callId}`, {
      headers: bearer(key),
      params: { id: callId },
    });
    expect(foreign.status).toBe(404);
    const own = await sendTo(getCallRoute, `/api/v1/calls/${callId}`, {
      headers: agentKey,
      params: { id: callId },
    });
    expect(own.status).toBe(200);
    // Keys of a principal are gateway-only: they cannot decide, even their own calls.
    const selfDecide = await sendTo(approveRoute, `/api/v1/approvals/${callId}/approve`, {
      method: "POST",
      headers: agentKey,
      params: { id: callId },
    });
    expect(selfDecide.status).toBe(403);

    const adminKey = await createTestApiKey(world.handle, ["admin"]);
    const decided = await sendTo(denyRoute, `/api/v1/approvals/${callId}/deny`, {
      method: "POST",
      headers: bearer(adminKey),
      params: { id: callId },
    });
    expect(decided.status).toBe(200);
    expect(decided.body.approval.decidedBy).toMatchObject({ kind: "api_key", name: 'API key "test-admin"' });
    // An admin key has no identity to call tools as.
    const adminCall = await postCall(bearer(adminKey), { tool: "local-tools__echo", arguments: {} });
    expect(adminCall.status).toBe(403);
    expect(adminCall.body.error.message).toMatch(/belongs to no principal/);
  });

  it("pages and filters the call history", async () => {
    for (let i = 0; i < 3; i++)
      await postCall(agentKey, { tool: "local-tools__current_time", arguments: {} });
    const headers = cookie(world.admin.cookie);
    const first = await sendTo(listCallsRoute, "/api/v1/calls?tool=local-tools__current_time&limit=2", {
      headers,
    });
    expect(first.status).toBe(200);
    expect(first.body.calls).toHaveLength(2);
    expect(first.body.calls[0]).not.toHaveProperty("arguments");
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await sendTo(
      listCallsRoute,
      `/api/v1/calls?tool=local-tools__current_time&limit=2&cursor=${first.body.nextCursor}`,
      { headers },
    );
    expect(second.body.calls).toHaveLength(1);
    const ids = [...first.body.calls, ...second.body.calls].map((c: Json) => c.id);
    expect(new Set(ids).size).toBe(3);

    const pending = await sendTo(
      listCallsRoute,
      "/api/v1/calls?status=pending_approval,denied&server=fixture",
      { headers },
    );
    expect(
      pending.body.calls.every(
        (c: Json) => ["pending_approval", "denied"].includes(c.status) && c.serverName === "fixture",
      ),
    ).toBe(true);
    const byRequester = await sendTo(listCallsRoute, `/api/v1/calls?requester=${world.agent.id}`, {
      headers,
    });
    expect(byRequester.body.calls.every((c: Json) => c.requester.id === world.agent.id)).toBe(true);

    const bad = await sendTo(listCallsRoute, "/api/v1/calls?status=sleeping", { headers });
    expect(bad.status).toBe(400);
    const badBody = await postCall(agentKey, { tool: "local-tools__echo", arguments: [1], waitSeconds: 500 });
    expect(badBody.status).toBe(400);
    expect(Object.keys(badBody.body.error.fieldErrors).sort()).toEqual(["arguments", "waitSeconds"]);
  });
});
