import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as approveRoute } from "@/app/api/v1/approvals/[id]/approve/route";
import { POST as denyRoute } from "@/app/api/v1/approvals/[id]/deny/route";
import { GET as getCallRoute } from "@/app/api/v1/calls/[id]/route";
import { GET as waitRoute } from "@/app/api/v1/calls/[id]/wait/route";
import { POST as postCallRoute } from "@/app/api/v1/calls/route";
import { auditEvents, calls } from "@/db/schema";
import { putSecret } from "@/lib/secrets/secrets";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { drivers } from "../fixtures/databases";
import { bearer, type Json, sendTo } from "../fixtures/route-request";

/*
 * "Approve with edits" over REST: the approver changes a held call's arguments, the tool receives
 * the edited ones, the caller's result says so, and the call keeps both versions. Real route
 * handlers, a real stdio server that records what it was given.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("approving a call with edited arguments on %s", (driver) => {
  let world: CallsWorld;
  const token = () => `t-${randomBytes(6).toString("hex")}`;
  const approver = () => ({ cookie: world.approvers[0]?.cookie ?? "" });
  const hold = async (args: Record<string, unknown>) => {
    const posted = await sendTo(postCallRoute, "/api/v1/calls", {
      method: "POST",
      headers: bearer(world.agent.key),
      body: { tool: "fixture__record", arguments: args },
    });
    expect(posted.body.call.status).toBe("pending_approval");
    return posted.body.call.id as string;
  };
  const decide = (decision: "approve" | "deny", id: string, body: unknown) =>
    sendTo(decision === "approve" ? approveRoute : denyRoute, `/api/v1/approvals/${id}/${decision}`, {
      method: "POST",
      headers: approver(),
      body,
      params: { id },
    });
  const readCall = (id: string) =>
    sendTo(getCallRoute, `/api/v1/calls/${id}`, { headers: approver(), params: { id } });

  beforeAll(async () => {
    world = await openCallsWorld(driver);
  });
  afterAll(async () => {
    await world?.close();
  });

  it("runs the edited call, tells the caller what changed, and keeps both versions", async () => {
    const asked = token();
    const edited = token();
    const callId = await hold({ token: asked });
    const waiting = sendTo(waitRoute, `/api/v1/calls/${callId}/wait?timeoutSeconds=30`, {
      headers: bearer(world.agent.key),
      params: { id: callId },
    });
    const approved = await decide("approve", callId, { arguments: { token: edited }, reason: "typo" });
    expect(approved.status).toBe(200);
    expect(approved.body.call.argumentEdit).toEqual({
      requestedArguments: { token: asked },
      editedFields: ["token"],
    });

    const done = (await waiting).body.call;
    expect(done.status).toBe("succeeded");
    expect(done.arguments).toEqual({ token: edited });
    // The tool ran with the approver's value, never the caller's.
    expect(world.recorded()).toContain(edited);
    expect(world.recorded()).not.toContain(asked);
    expect(done.result.content[0]).toEqual({ type: "text", text: `recorded ${edited}` });
    expect(done.result.content[1].text).toContain(`- token: requested "${asked}", ran with "${edited}"`);
    expect(done.result._meta["switchboard/editedArguments"]).toEqual({
      fields: ["token"],
      requested: { token: asked },
      approved: { token: edited },
    });

    const detail = await readCall(callId);
    const approvedEvent = detail.body.timeline.find((e: Json) => e.type === "call.approved");
    expect(approvedEvent.detail).toMatchObject({ editedFields: ["token"], reason: "typo" });
    const [audit] = await world.handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "call.arguments_edited"), eq(auditEvents.subject, callId)));
    expect(audit).toMatchObject({
      actorKind: "operator",
      actorName: `approver-a-${driver}`,
      detail: `fixture__record approved with edited arguments — token: "${asked}" → "${edited}"`,
    });
  });

  it("refuses arguments the tool's schema refuses, beside the field, and leaves the call pending", async () => {
    const asked = token();
    const callId = await hold({ token: asked });
    const refused = await decide("approve", callId, { arguments: { token: 42 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("token must be text");
    expect(refused.body.error.fieldErrors).toEqual({ token: ["token must be text."] });
    expect((await readCall(callId)).body.call.status).toBe("pending_approval");

    // Arguments are a JSON object; the same approval then goes through unedited.
    expect((await decide("approve", callId, { arguments: ["x"] })).status).toBe(400);
    const plain = await decide("approve", callId, { arguments: { token: asked } });
    expect(plain.status).toBe(200);
    expect(plain.body.call.argumentEdit).toBeNull();
  });

  it("refuses edits with a denial and with a decision of the whole group", async () => {
    const callId = await hold({ token: token() });
    const denied = await decide("deny", callId, { arguments: { token: "x" } });
    expect(denied.status).toBe(400);
    expect(denied.body.error.message).toContain("only when approving");
    const grouped = await decide("approve", callId, { arguments: { token: "x" }, withDuplicates: true });
    expect(grouped.status).toBe(400);
    expect(grouped.body.error.message).toContain("one call only");
    expect((await readCall(callId)).body.call.status).toBe("pending_approval");
    expect((await decide("deny", callId, {})).status).toBe(200);
  });

  it("refuses edited arguments larger than a call's", async () => {
    const callId = await hold({ token: token() });
    const tooLarge = await decide("approve", callId, { arguments: { token: "x".repeat(300 * 1024) } });
    expect(tooLarge.status).toBe(413);
    expect((await readCall(callId)).body.call.status).toBe("pending_approval");
    expect((await decide("deny", callId, {})).status).toBe(200);
  });

  it("scrubs a secret the approver types, and will not send [redacted] as text", async () => {
    const canary = `sk-edit-${randomBytes(8).toString("hex")}`;
    await putSecret(world.handle.db, {
      tenantId: world.tenantId,
      name: "edit-canary",
      value: canary,
      by: null,
    });
    const callId = await hold({ token: `asked:${canary}` });
    expect((await readCall(callId)).body.call.arguments).toEqual({ token: "asked:[redacted]" });

    const placeholder = await decide("approve", callId, { arguments: { token: "other:[redacted]" } });
    expect(placeholder.status).toBe(400);
    expect(placeholder.body.error.fieldErrors).toHaveProperty("token");

    const approved = await decide("approve", callId, { arguments: { token: `typed:${canary}` } });
    expect(approved.status).toBe(200);
    const done = await sendTo(waitRoute, `/api/v1/calls/${callId}/wait?timeoutSeconds=30`, {
      headers: bearer(world.agent.key),
      params: { id: callId },
    });
    expect(done.body.call.status).toBe("succeeded");
    expect(world.recorded()).toContain(`typed:${canary}`);
    const [row] = await world.handle.db.select().from(calls).where(eq(calls.id, callId));
    expect(row?.arguments).toEqual({ token: "typed:[redacted]" });
    expect(row?.requestedArguments).toEqual({ token: "asked:[redacted]" });
    expect(row?.sealedArguments).toBeNull();
    expect(JSON.stringify(done.body)).not.toContain(canary);
    const audit = await world.handle.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(eq(auditEvents.subject, callId));
    expect(audit.map((a) => a.detail).join(" ")).not.toContain(canary);
  });
});
