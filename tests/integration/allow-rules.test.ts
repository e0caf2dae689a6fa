import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DELETE as revokeRoute } from "@/app/api/v1/allow-rules/[id]/route";
import { POST as createRuleRoute, GET as listRulesRoute } from "@/app/api/v1/allow-rules/route";
import { POST as approveRoute } from "@/app/api/v1/approvals/[id]/approve/route";
import { GET as getCallRoute } from "@/app/api/v1/calls/[id]/route";
import { POST as postCallRoute } from "@/app/api/v1/calls/route";
import { PUT as putGrantsRoute } from "@/app/api/v1/principals/[id]/grants/route";
import { allowRules, auditEvents, events } from "@/db/schema";
import { createPrincipalKey } from "@/lib/principals/principal-access";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { createTestAgent, drivers } from "../fixtures/databases";
import { bearer, type Json, sendTo } from "../fixtures/route-request";

/*
 * Allow rules through the real REST handlers and the one call path: a rule made while approving
 * lets the principal's next matching call run at once and names itself on the call; a call that
 * does not match, a revoked or expired rule, or a call without a grant still waits or is refused.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("allow rules on %s", (driver) => {
  let world: CallsWorld;
  let agentKey: Record<string, string>;
  const as = (cookie: string) => ({ cookie });
  const approver = () => as(world.approvers[0]?.cookie ?? "");
  const otherApprover = () => as(world.approvers[1]?.cookie ?? "");
  const token = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`;
  // Waits for a call that runs; one expected to wait for an approver is answered at once (wait 0).
  const record = (t: string, waitSeconds = 20) =>
    sendTo(postCallRoute, "/api/v1/calls", {
      method: "POST",
      headers: agentKey,
      body: { tool: "fixture__record", arguments: { token: t }, waitSeconds },
    });
  const createRule = (headers: Record<string, string>, body: Json) =>
    sendTo(createRuleRoute, "/api/v1/allow-rules", { method: "POST", headers, body });
  const revoke = (headers: Record<string, string>, id: string) =>
    sendTo(revokeRoute, `/api/v1/allow-rules/${id}`, { method: "DELETE", headers, params: { id } });

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    agentKey = bearer(world.agent.key);
  });
  afterAll(async () => {
    await world?.close();
  });

  it("approving with a rule lets the next matching call run at once, naming the rule; others still wait", async () => {
    const first = await record(token("ci"), 0);
    expect(first.status).toBe(202);
    const approved = await sendTo(approveRoute, "/api/v1/approvals/x/approve", {
      method: "POST",
      headers: approver(),
      params: { id: first.body.call.id },
      body: {
        allowRule: {
          durationMinutes: 15,
          conditions: [{ field: "token", op: "matches", value: "ci-[0-9a-f]+" }],
        },
      },
    });
    expect(approved.status).toBe(200);
    const [rule] = (await sendTo(listRulesRoute, "/api/v1/allow-rules", { headers: approver() })).body
      .allowRules;
    expect(rule).toMatchObject({
      principal: { id: world.agent.id, name: "agent-007" },
      tool: "fixture__record",
      status: "active",
      sourceCallId: first.body.call.id,
      createdBy: { id: world.approvers[0]?.userId, name: `approver-a-${driver}` },
      conditions: [{ field: "token", op: "matches", value: "ci-[0-9a-f]+" }],
    });

    const matching = token("ci");
    const through = await record(matching);
    expect(through.status).toBe(200);
    expect(through.body.call).toMatchObject({ status: "succeeded", allowedByRule: rule.id, approval: null });
    expect(world.recorded()).toContain(matching);
    const detail = await sendTo(getCallRoute, `/api/v1/calls/${through.body.call.id}`, {
      headers: approver(),
      params: { id: through.body.call.id },
    });
    expect(detail.body.timeline[0]).toMatchObject({
      type: "call.requested",
      detail: { allowedByRule: rule.id },
    });

    const other = await record(token("prod"), 0);
    expect(other.status).toBe(202);
    expect(other.body.call).toMatchObject({ status: "pending_approval", allowedByRule: null });

    const [created] = await world.handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "allow_rule.created"), eq(auditEvents.subject, rule.id)));
    expect(created).toMatchObject({ actorKind: "operator", actorName: `approver-a-${driver}` });
    expect(created?.detail).toContain("agent-007 may call fixture__record until");
    const [announced] = await world.handle.db
      .select()
      .from(events)
      .where(and(eq(events.tenantId, world.tenantId), eq(events.type, "allow_rule.created")));
    expect(announced?.data).toMatchObject({
      ruleId: rule.id,
      tool: "fixture__record",
      principalName: "agent-007",
    });
  });

  it("a revoked rule lets nothing through; only an admin or its maker may revoke it, and it is audited", async () => {
    const made = await createRule(approver(), {
      principalId: world.agent.id,
      tool: "fixture__record",
      durationMinutes: 60,
      conditions: [{ field: "token", op: "equals", value: "exact-token" }],
    });
    expect(made.status).toBe(201);
    const id = made.body.allowRule.id as string;
    const through = await record("exact-token");
    expect(through.body.call).toMatchObject({ status: "succeeded", allowedByRule: id });

    const stranger = await revoke(otherApprover(), id);
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.message).toContain("Only an admin or the person who made this rule");

    const revoked = await revoke(as(world.admin.cookie), id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.allowRule).toMatchObject({ status: "revoked", revokedBy: `admin-${driver}` });
    const waits = await record("exact-token", 0);
    expect(waits.body.call).toMatchObject({ status: "pending_approval", allowedByRule: null });
    expect((await revoke(as(world.admin.cookie), id)).status).toBe(409);
    const [audited] = await world.handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "allow_rule.revoked"), eq(auditEvents.subject, id)));
    expect(audited).toMatchObject({ actorName: `admin-${driver}` });
  });

  it("an expired rule is not applied and is listed as expired", async () => {
    const made = await createRule(approver(), {
      principalId: world.agent.id,
      tool: "fixture__record",
      durationMinutes: 1,
      conditions: [{ field: "token", op: "equals", value: "expiring" }],
    });
    const id = made.body.allowRule.id as string;
    expect((await record("expiring")).body.call.allowedByRule).toBe(id);
    // The minute passes: set the rule's end a moment back rather than wait for it.
    await world.handle.db
      .update(allowRules)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(allowRules.id, id));
    expect((await record("expiring", 0)).body.call).toMatchObject({
      status: "pending_approval",
      allowedByRule: null,
    });
    const listed = (await sendTo(listRulesRoute, "/api/v1/allow-rules", { headers: approver() })).body
      .allowRules;
    expect(listed.find((r: Json) => r.id === id)?.status).toBe("expired");
  });

  it("a rule never widens grants: without a grant it is refused, and a grant taken away still denies", async () => {
    const ungranted = await createRule(approver(), {
      principalId: world.agent.id,
      tool: "fixture__big",
      durationMinutes: 15,
    });
    expect(ungranted.status).toBe(400);
    expect(ungranted.body.error.message).toContain('"agent-007" has no grant for fixture__big');

    const made = await createRule(approver(), {
      principalId: world.agent.id,
      tool: "fixture__record",
      durationMinutes: 15,
    });
    expect(made.status).toBe(201);
    const grants = (patterns: string[]) =>
      sendTo(putGrantsRoute, `/api/v1/principals/${world.agent.id}/grants`, {
        method: "PUT",
        headers: as(world.admin.cookie),
        params: { id: world.agent.id },
        body: { patterns },
      });
    expect((await grants(["local-tools__*", "fixture__slow"])).status).toBe(200);
    try {
      const denied = await record(token("any"));
      expect(denied.body.call).toMatchObject({ status: "denied", allowedByRule: null });
    } finally {
      await grants(["local-tools__*", "fixture__record", "fixture__slow"]);
      await revoke(as(world.admin.cookie), made.body.allowRule.id);
    }
  });

  it.each([
    [{ until: "2020-01-01T00:00:00Z" }, "already past"],
    [{ durationMinutes: 15, until: "2099-01-01T00:00:00Z" }, "not both"],
    [
      { durationMinutes: 15, conditions: [{ field: "token", op: "matches", value: "(a+)+$" }] },
      "may not be repeated",
    ],
    [
      { durationMinutes: 15, conditions: [{ field: "token", op: "matches", value: "[oops" }] },
      "does not compile",
    ],
    [{ durationMinutes: 0 }, "at least a minute"],
  ])("refuses %j with the reason", async (term, reason) => {
    const refused = await createRule(approver(), {
      principalId: world.agent.id,
      tool: "fixture__record",
      ...term,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain(reason);
  });

  it("no self-approval: a person may not make a rule for an agent whose key they created", async () => {
    const own = await createTestAgent(world.handle.db, {
      tenantId: world.tenantId,
      name: `own-agent-${driver}`,
      patterns: ["fixture__record"],
    });
    await createPrincipalKey(world.handle.db, {
      tenantId: world.tenantId,
      principalId: own.id,
      input: { name: "made by approver b" },
      by: { kind: "operator", id: world.approvers[1]?.userId ?? "" },
    });
    const body = { principalId: own.id, tool: "fixture__record", durationMinutes: 15 };
    const refused = await createRule(otherApprover(), body);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("No self-approval");
    expect((await createRule(approver(), body)).status).toBe(201);
  });

  it("a rule that cannot be made leaves the approval pending", async () => {
    const call = await record(token("keep"), 0);
    const refused = await sendTo(approveRoute, "/api/v1/approvals/x/approve", {
      method: "POST",
      headers: approver(),
      params: { id: call.body.call.id },
      body: { allowRule: { until: "2020-01-01T00:00:00Z" } },
    });
    expect(refused.status).toBe(400);
    const after = await sendTo(getCallRoute, `/api/v1/calls/${call.body.call.id}`, {
      headers: approver(),
      params: { id: call.body.call.id },
    });
    expect(after.body.call.status).toBe("pending_approval");
  });
});
