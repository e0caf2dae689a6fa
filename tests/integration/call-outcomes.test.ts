import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decideApproval } from "@/lib/approvals/decide-approval";
import { decisionRightsFor, ownCallRights } from "@/lib/approvals/decision-rights";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import { getCall, listCalls } from "@/lib/calls/read-calls";
import type { Requester } from "@/lib/calls/requester";
import { updateTool } from "@/lib/catalog/governed-tools";
import type { DatabaseDriver } from "@/lib/db/client";
import { putApprovalPolicy } from "@/lib/policy/approval-rules";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { drivers } from "../fixtures/databases";

/*
 * How a call ended, as the API says it: a tool that answered `isError: true` is a `tool_error`
 * outcome, listed under ?status=tool_error and no longer under ?status=succeeded; and who may decide a
 * held call, said before anyone clicks — on PGlite and PostgreSQL, against the demo server over stdio.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("call outcomes (%s)", (driver: DatabaseDriver) => {
  let world: CallsWorld;
  let agent: Requester;
  const scope = () => ({ tenantId: world.tenantId, reader: { kind: "workspace" as const } });
  const list = async (status: string) =>
    (await listCalls(world.handle.db, { ...scope(), query: { status, limit: "200" } })).calls.map(
      (c) => c.id,
    );
  const call = (requester: Requester, tool: string, args: Record<string, unknown>) =>
    executeToolCall(world.handle.db, { tenantId: world.tenantId, requester, tool, arguments: args });

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    agent = { kind: "principal", id: world.agent.id, name: world.agent.name };
    for (const name of ["local-tools__echo", "local-tools__current_time"])
      await updateTool(world.handle.db, {
        tenantId: world.tenantId,
        id: await world.toolId(name),
        input: { effect: "read" },
      });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("a tool that answered isError is a tool error: its own filter, out of succeeded", async () => {
    // The demo tool answers an unknown time zone with isError: true.
    const toolError = await call(agent, "local-tools__current_time", { timeZone: "Nowhere/Atlantis" });
    const ok = await call(agent, "local-tools__echo", { text: "fine" });
    const refused = await call(agent, "fixture__big", { bytes: 1 });
    expect(toolError).toMatchObject({ status: "succeeded", isError: true, outcome: "tool_error" });
    expect(ok).toMatchObject({ status: "succeeded", isError: false, outcome: "succeeded" });
    expect(refused).toMatchObject({ status: "denied", outcome: "denied" });

    const toolErrors = await list("tool_error");
    expect(toolErrors).toContain(toolError.id);
    expect(toolErrors).not.toContain(ok.id);
    const succeeded = await list("succeeded");
    expect(succeeded).toContain(ok.id);
    expect(succeeded).not.toContain(toolError.id);
    // What the Overview's "Recent failures" asks for.
    const failures = await list("failed,tool_error");
    expect(failures).toContain(toolError.id);
    expect(failures).not.toContain(ok.id);
    expect(failures).not.toContain(refused.id);

    const { call: read } = await getCall(world.handle.db, { ...scope(), callId: toolError.id });
    expect(read.outcome).toBe("tool_error");
  });

  it("an unknown outcome in the filter is a 400 that lists the ones there are", async () => {
    await expect(list("exploded")).rejects.toMatchObject({
      code: "validation",
      message: expect.stringContaining("tool_error"),
    });
  });

  it("says who may approve a held call, with the service's own refusal for one's own call", async () => {
    const admin: Requester = { kind: "operator", id: world.admin.userId, name: "Admin", role: "admin" };
    await putApprovalPolicy(world.handle.db, {
      tenantId: world.tenantId,
      input: { forbidSelfApproval: true },
      by: null,
    });
    const own = await call(admin, "local-tools__write_note", { title: "outcomes", text: "held" });
    expect(own.status).toBe("pending_approval");
    const rights = (userId: string, canDecide = true) =>
      decisionRightsFor(world.handle.db, { tenantId: world.tenantId, callId: own.id, userId, canDecide });

    const mine = await rights(world.admin.userId);
    expect(mine).toEqual({ canDecide: true, approveRefusal: expect.stringContaining("No self-approval") });
    expect(await ownCallRights(world.handle.db, { tenantId: world.tenantId, canDecide: true })).toEqual(mine);
    // What the page says is what the service does.
    await expect(
      decideApproval(world.handle.db, {
        tenantId: world.tenantId,
        id: own.id,
        decision: "approve",
        input: {},
        decider: { kind: "operator", id: world.admin.userId },
      }),
    ).rejects.toMatchObject({ code: "forbidden", message: mine.approveRefusal });

    expect(await rights(world.approvers[0]?.userId ?? "")).toEqual({ canDecide: true, approveRefusal: null });
    expect(await rights(world.approvers[0]?.userId ?? "", false)).toEqual({
      canDecide: false,
      approveRefusal: null,
    });

    await putApprovalPolicy(world.handle.db, {
      tenantId: world.tenantId,
      input: { forbidSelfApproval: false },
      by: null,
    });
    expect(await rights(world.admin.userId)).toEqual({ canDecide: true, approveRefusal: null });

    const denied = await decideApproval(world.handle.db, {
      tenantId: world.tenantId,
      id: own.id,
      decision: "deny",
      input: { reason: "withdrawn" },
      decider: { kind: "operator", id: world.admin.userId },
    });
    expect(denied.outcome).toBe("denied");
    // Decided: nothing left to refuse.
    expect(await rights(world.admin.userId)).toEqual({ canDecide: true, approveRefusal: null });
  });
});
