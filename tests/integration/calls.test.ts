import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { calls, events } from "@/db/schema";
import { decideApproval } from "@/lib/approvals/decide-approval";
import type { CallDto } from "@/lib/calls/call-view";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import type { Requester } from "@/lib/calls/requester";
import { updateTool } from "@/lib/catalog/governed-tools";
import type { DatabaseDriver } from "@/lib/db/client";
import { putApprovalPolicy } from "@/lib/policy/approval-rules";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { drivers } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";

/*
 * The one path of a tool call, end to end against real servers over stdio: grants, effects, the
 * approval gate, waiting for a decision, expiry, idempotency and results — on PGlite and PostgreSQL.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("governed tool calls (%s)", (driver: DatabaseDriver) => {
  let world: CallsWorld;
  let agent: Requester;
  const token = () => `t-${randomBytes(6).toString("hex")}`;
  const approver = (i = 0) => ({ kind: "operator" as const, id: world.approvers[i]?.userId ?? "" });
  const call = (
    tool: string,
    args: Record<string, unknown>,
    extra: { waitMs?: number; idempotencyKey?: string } = {},
  ) =>
    executeToolCall(world.handle.db, {
      tenantId: world.tenantId,
      requester: agent,
      tool,
      arguments: args,
      ...extra,
    });
  const decide = (callId: string, decision: "approve" | "deny", reason?: string, who = approver()) =>
    decideApproval(world.handle.db, {
      tenantId: world.tenantId,
      id: callId,
      decision,
      input: { reason },
      decider: who,
    });
  const eventTypes = async (callId: string) =>
    (
      await world.handle.db
        .select({ type: events.type })
        .from(events)
        .where(eq(events.callId, callId))
        .orderBy(events.id)
    ).map((e) => e.type);
  /** Until the call has an approval row to decide (the caller may still be recording it). */
  const pendingCall = async (promise: Promise<CallDto>, tool: string, t: string) => {
    for (let i = 0; i < 400; i++) {
      const rows = await world.handle.db
        .select({ id: calls.id, arguments: calls.arguments })
        .from(calls)
        .where(and(eq(calls.gatewayName, tool), eq(calls.status, "pending_approval")));
      const mine = rows.find((r) => r.arguments.token === t);
      if (mine) return mine.id;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no pending call for ${t}; the call ended as ${(await promise).status}`);
  };

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    agent = { kind: "principal", id: world.agent.id, name: world.agent.name };
    for (const name of ["local-tools__echo", "local-tools__word_count", "local-tools__current_time"]) {
      await updateTool(world.handle.db, {
        tenantId: world.tenantId,
        id: await world.toolId(name),
        input: { effect: "read" },
      });
    }
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(async () => {
    await putApprovalPolicy(world.handle.db, { tenantId: world.tenantId, input: {}, by: null });
  });

  it("refuses a tool the principal has no grant for: recorded as denied, nothing runs", async () => {
    const denied = await call("fixture__big", { bytes: 10 });
    expect(denied).toMatchObject({
      status: "denied",
      error: { code: "policy_denied", message: expect.stringContaining("no grant for fixture__big") },
      result: null,
      approval: null,
      // A refused caller learns nothing about what exists behind the name.
      serverId: null,
      serverName: null,
    });
    expect(await eventTypes(denied.id)).toEqual(["call.requested", "call.denied"]);
    // An attempt on a tool that does not exist is refused the same way: no hint that it doesn't.
    const unknown = await call("nowhere__nothing", {});
    expect(unknown).toMatchObject({ status: "denied", serverId: null, effect: "external-write" });
  });

  it("keeps quotes, backslashes, escapes and any script in what it records, exactly as sent", async () => {
    const text = `O'Brien said "\\n" isn't \\'; drop table calls; -- \u00e9\u4e2d\u{1F389} \\x00 $$ E'x'`;
    const done = await call("local-tools__echo", { text, "it's": "a 'key'" });
    expect(done.status).toBe("succeeded");
    const [row] = await world.handle.db
      .select({ arguments: calls.arguments, result: calls.result })
      .from(calls)
      .where(eq(calls.id, done.id));
    expect(row?.arguments).toEqual({ text, "it's": "a 'key'" });
    expect(row?.result).toMatchObject({ content: [{ type: "text", text }] });
    expect(await eventTypes(done.id)).toEqual(["call.requested", "call.started", "call.succeeded"]);
  });

  it("runs a tool classified as read at once, on the pooled connection", async () => {
    const done = await call("local-tools__echo", { text: "hello" });
    expect(done).toMatchObject({
      status: "succeeded",
      effect: "read",
      isError: false,
      error: null,
      approval: null,
      result: { content: [{ type: "text", text: "hello" }] },
      requester: { kind: "principal", id: world.agent.id, name: "agent-007" },
    });
    expect(done.durationMs).toBeGreaterThanOrEqual(0);
    expect(await eventTypes(done.id)).toEqual(["call.requested", "call.started", "call.succeeded"]);
  });

  it("stores NUL characters, which jsonb cannot hold, as U+FFFD in arguments and results", async () => {
    // Both ways a call is written: at once as running, and recorded first (an idempotency key).
    for (const extra of [{}, { idempotencyKey: token() }]) {
      const withNul = `before\u0000after-${token()}`;
      const done = await call("local-tools__echo", { text: withNul, "odd\u0000name": 1 }, extra);
      expect(done.status).toBe("succeeded");
      const [row] = await world.handle.db
        .select({ arguments: calls.arguments, result: calls.result })
        .from(calls)
        .where(eq(calls.id, done.id));
      const stored = withNul.replace("\u0000", "\uFFFD");
      expect(row?.arguments).toEqual({ text: stored, "odd\uFFFDname": 1 });
      expect(row?.result).toMatchObject({ content: [{ type: "text", text: stored }] });
    }
  });

  it("records a chain of calls, each started the moment the one before was answered", async () => {
    // A caller answered before its ending is written (the gateway) may send its next call at once:
    // that call's start and the previous ending are then written together, in one statement.
    const texts = Array.from({ length: 10 }, (_, i) => `chained-${i}-${token()}`);
    const chain: Array<Promise<CallDto>> = [];
    await new Promise<void>((resolve) => {
      const next = (i: number) => {
        if (i === texts.length) return resolve();
        chain.push(
          executeToolCall(world.handle.db, {
            tenantId: world.tenantId,
            requester: agent,
            tool: "local-tools__echo",
            arguments: { text: texts[i] },
            onOutcome: () => next(i + 1),
          }),
        );
      };
      next(0);
    });
    const done = await Promise.all(chain);
    for (const [i, finished] of done.entries()) {
      expect(finished).toMatchObject({ status: "succeeded", result: { content: [{ text: texts[i] }] } });
      expect(await eventTypes(finished.id)).toEqual(["call.requested", "call.started", "call.succeeded"]);
    }
  });

  it("records calls made at the same moment each with its own arguments, result and events", async () => {
    // Allowed calls arriving together are written together (lib/calls/call-journal.ts): one
    // statement for several calls must still give each call exactly its own row and events.
    const texts = Array.from({ length: 12 }, (_, i) => `together-${i}-${token()}`);
    const done = await Promise.all(texts.map((text) => call("local-tools__echo", { text })));
    for (const [i, finished] of done.entries()) {
      expect(finished).toMatchObject({
        status: "succeeded",
        arguments: { text: texts[i] },
        result: { content: [{ type: "text", text: texts[i] }] },
      });
      expect(await eventTypes(finished.id)).toEqual(["call.requested", "call.started", "call.succeeded"]);
    }
    const stored = await world.handle.db
      .select({ id: calls.id, status: calls.status, result: calls.result })
      .from(calls)
      .where(
        inArray(
          calls.id,
          done.map((d) => d.id),
        ),
      );
    expect(stored).toHaveLength(texts.length);
    for (const row of stored) {
      const text = texts[done.findIndex((d) => d.id === row.id)];
      expect(row).toMatchObject({ status: "succeeded", result: { content: [{ type: "text", text }] } });
    }
  });

  it("holds an unclassified tool as external-write until someone approves it", async () => {
    const t = token();
    const held = await call("fixture__record", { token: t });
    expect(held).toMatchObject({
      status: "pending_approval",
      effect: "external-write",
      result: null,
      approval: { status: "pending", requiredBecause: expect.stringContaining("not classified") },
    });
    expect(Date.parse(held.approval?.expiresAt ?? "") - Date.now()).toBeGreaterThan(500_000);
    expect(await eventTypes(held.id)).toEqual(["call.requested", "call.approval_required"]);
    expect(world.recorded()).not.toContain(t);
    await decide(held.id, "deny", "cleanup");
  });

  it("wakes the waiting caller when approved and hands it the result", async () => {
    const t = token();
    const waiting = call("fixture__record", { token: t }, { waitMs: 30_000 });
    const callId = await pendingCall(waiting, "fixture__record", t);
    const decided = await decide(callId, "approve", "looks fine");
    expect(decided.approval).toMatchObject({
      status: "approved",
      reason: "looks fine",
      decidedBy: { kind: "operator" },
    });
    const done = await waiting;
    expect(done).toMatchObject({
      id: callId,
      status: "succeeded",
      result: { content: [{ text: `recorded ${t}` }] },
    });
    expect(world.recorded().filter((r) => r === t)).toHaveLength(1);
    expect(await eventTypes(callId)).toEqual([
      "call.requested",
      "call.approval_required",
      "call.approved",
      "call.started",
      "call.succeeded",
    ]);
  });

  it("returns the approver's reason when denied, and never runs the call", async () => {
    const t = token();
    const waiting = call("fixture__record", { token: t }, { waitMs: 30_000 });
    const callId = await pendingCall(waiting, "fixture__record", t);
    await decide(callId, "deny", "not on a Friday");
    const done = await waiting;
    expect(done).toMatchObject({
      status: "denied",
      approval: { status: "denied", reason: "not on a Friday" },
      error: { code: "policy_denied", message: expect.stringContaining("not on a Friday") },
    });
    await expect(decide(callId, "approve")).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/already denied by approver-a/),
    });
    expect(world.recorded()).not.toContain(t);
    expect(await eventTypes(callId)).not.toContain("call.started");
  });

  it("expires a call nobody decided: the waiter's timer ends it, a late approval is a 409, it never runs", async () => {
    await putApprovalPolicy(world.handle.db, {
      tenantId: world.tenantId,
      input: { expirySeconds: 1 },
      by: null,
    });
    const t = token();
    const started = Date.now();
    const done = await call("fixture__record", { token: t }, { waitMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(done).toMatchObject({
      status: "expired",
      approval: { status: "expired" },
      error: { code: "approval_expired" },
    });
    await expect(decide(done.id, "approve")).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("expired"),
    });
    expect(await eventTypes(done.id)).toEqual(["call.requested", "call.approval_required", "call.expired"]);
    expect(world.recorded()).not.toContain(t);
  });

  it("expires a call whose caller left, when anyone next decides or reads", async () => {
    await putApprovalPolicy(world.handle.db, {
      tenantId: world.tenantId,
      input: { expirySeconds: 1 },
      by: null,
    });
    const t = token();
    const held = await call("fixture__record", { token: t });
    // Time passing on purpose: the approval's one second runs out while nobody asks about it.
    await new Promise((r) => setTimeout(r, 1_100));
    await expect(decide(held.id, "approve")).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("expired"),
    });
    const [row] = await world.handle.db.select().from(calls).where(eq(calls.id, held.id));
    expect(row?.status).toBe("expired");
    expect((await eventTypes(held.id)).filter((type) => type === "call.expired")).toHaveLength(1);
  });

  it("runs an approved call even when its caller has gone away", async () => {
    const t = token();
    const held = await call("fixture__record", { token: t });
    await decide(held.id, "approve");
    // Nobody waits: the process that recorded the approval runs it.
    const row = await eventually(async () => {
      const [found] = await world.handle.db.select().from(calls).where(eq(calls.id, held.id));
      return found?.status === "succeeded" ? found : undefined;
    }, "the approved call to run");
    expect(row?.status).toBe("succeeded");
    expect(world.recorded().filter((r) => r === t)).toHaveLength(1);
  });

  it("runs a call once per idempotency key, however often and however concurrently it is sent", async () => {
    const t = token();
    const idempotencyKey = `key-${t}`;
    const [first, second] = await Promise.all([
      call("fixture__record", { token: t }, { idempotencyKey }),
      call("fixture__record", { token: t }, { idempotencyKey }),
    ]);
    expect(second?.id).toBe(first?.id);
    const waiting = call("fixture__record", { token: t }, { idempotencyKey, waitMs: 30_000 });
    await decide(first?.id ?? "", "approve");
    expect(await waiting).toMatchObject({ id: first?.id, status: "succeeded" });
    const again = await call("fixture__record", { token: t }, { idempotencyKey });
    expect(again).toMatchObject({
      id: first?.id,
      status: "succeeded",
      result: { content: [{ text: `recorded ${t}` }] },
    });
    expect(world.recorded().filter((r) => r === t)).toHaveLength(1);
    await expect(call("fixture__record", { token: "other" }, { idempotencyKey })).rejects.toMatchObject({
      code: "conflict",
    });
    const rows = await world.handle.db.select().from(calls).where(eq(calls.idempotencyKey, idempotencyKey));
    expect(rows).toHaveLength(1);
  });

  it("cuts a huge result to the size limit with a notice", async () => {
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: await world.toolId("fixture__big"),
      input: { effect: "read" },
    });
    const operator: Requester = { kind: "operator", id: world.admin.userId, name: "admin", role: "admin" };
    const done = await executeToolCall(world.handle.db, {
      tenantId: world.tenantId,
      requester: operator,
      tool: "fixture__big",
      arguments: { bytes: 1_000_000 },
    });
    expect(done.status).toBe("succeeded");
    expect(done.result?.truncated).toMatchObject({ limitBytes: 256 * 1024 });
    expect(Buffer.byteLength(JSON.stringify(done.result))).toBeLessThanOrEqual(256 * 1024);
    const [row] = await world.handle.db
      .select({ result: calls.result })
      .from(calls)
      .where(eq(calls.id, done.id));
    expect(Buffer.byteLength(JSON.stringify(row?.result))).toBeLessThanOrEqual(256 * 1024);
  });

  it("fails a call that times out with the timeout code", async () => {
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: await world.toolId("fixture__slow"),
      input: { effect: "read" },
    });
    const { mcpServers } = await import("@/db/schema");
    await world.handle.db
      .update(mcpServers)
      .set({ callTimeoutMs: 300 })
      .where(eq(mcpServers.name, "fixture"));
    try {
      const done = await call("fixture__slow", { ms: 3_000 });
      expect(done).toMatchObject({ status: "failed", error: { code: "timeout" } });
      expect(await eventTypes(done.id)).toEqual(["call.requested", "call.started", "call.failed"]);
    } finally {
      await world.handle.db
        .update(mcpServers)
        .set({ callTimeoutMs: 30_000 })
        .where(eq(mcpServers.name, "fixture"));
    }
  });

  it("cancels a call whose caller aborts while it waits for approval", async () => {
    const t = token();
    const controller = new AbortController();
    const waiting = executeToolCall(world.handle.db, {
      tenantId: world.tenantId,
      requester: agent,
      tool: "fixture__record",
      arguments: { token: t },
      waitMs: 30_000,
      signal: controller.signal,
    });
    const callId = await pendingCall(waiting, "fixture__record", t);
    controller.abort();
    expect(await waiting).toMatchObject({
      id: callId,
      status: "cancelled",
      approval: { status: "cancelled" },
    });
    await expect(decide(callId, "approve")).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("withdrew"),
    });
    expect(world.recorded()).not.toContain(t);
  });

  it("races 50 pending calls between an approver and a denier: one decision each, run at most once, only if approved", async () => {
    const tokens = Array.from({ length: 50 }, () => token());
    const waiting = tokens.map((t) => call("fixture__record", { token: t }, { waitMs: 60_000 }));
    const ids = await Promise.all(
      tokens.map((t, i) => pendingCall(waiting[i] as Promise<CallDto>, "fixture__record", t)),
    );
    const attempt = async (id: string, decision: "approve" | "deny", who: number) => {
      try {
        await decide(id, decision, `${decision} by ${who}`, approver(who));
        return "won";
      } catch (error) {
        expect(error).toMatchObject({ code: "conflict" });
        return "lost";
      }
    };
    // Two clients deciding every call at once; which request goes out first alternates, so on a
    // single-connection PGlite each side still wins some, and on PostgreSQL they truly race.
    const raced = await Promise.all(
      ids.map((id, i) => {
        const approve = () => attempt(id, "approve", 0);
        const deny = () => attempt(id, "deny", 1);
        return i % 2 === 0
          ? Promise.all([approve(), deny()])
          : Promise.all([deny(), approve()]).then(([d, a]) => [a, d] as const);
      }),
    );
    const approvals = raced.map(([a]) => a);
    const denials = raced.map(([, d]) => d);
    const outcomes = await Promise.all(waiting);
    const recorded = world.recorded();
    ids.forEach((id, i) => {
      const approved = approvals[i] === "won";
      expect(approved, `${id} decided exactly once`).toBe(denials[i] === "lost");
      const outcome = outcomes[i];
      expect(outcome?.status).toBe(approved ? "succeeded" : "denied");
      expect(outcome?.approval?.status).toBe(approved ? "approved" : "denied");
      expect(recorded.filter((r) => r === tokens[i])).toHaveLength(approved ? 1 : 0);
    });
    const started = await world.handle.db
      .select({ callId: events.callId })
      .from(events)
      .where(eq(events.type, "call.started"));
    for (const [i, id] of ids.entries()) {
      expect(started.filter((e) => e.callId === id)).toHaveLength(approvals[i] === "won" ? 1 : 0);
    }
    expect(approvals.filter((a) => a === "won").length).toBeGreaterThan(0);
    expect(denials.filter((d) => d === "won").length).toBeGreaterThan(0);
  });
});
