import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { approvals, calls, events } from "@/db/schema";
import { decideApproval } from "@/lib/approvals/decide-approval";
import { decideApprovalItem } from "@/lib/approvals/decide-group";
import { listApprovals } from "@/lib/approvals/list-approvals";
import type { CallDto } from "@/lib/calls/call-view";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import { waitForCall } from "@/lib/calls/read-calls";
import { recoverApprovedCalls } from "@/lib/calls/recover-approved";
import type { Requester } from "@/lib/calls/requester";
import { runApprovedCall } from "@/lib/calls/run-approved-call";
import { StoppedRunnerSweeper } from "@/lib/calls/stopped-runners";
import type { DatabaseDriver } from "@/lib/db/client";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { drivers } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { type GatewayListener, listenGateway } from "../fixtures/gateway-listener";

/*
 * Issue #16 items 3 and 7 against real stdio servers, on PGlite and PostgreSQL: an approved call is
 * claimed with its decision and, if its runner stops first, started by another process exactly
 * once — or, past its start window, expired unrun; a gateway retry with the same idempotency key is
 * the same call; identical pending requests are one item of the queue. (The same with processes
 * killed for real: tests/faults/approved-calls.spec.ts.)
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("approved calls and retries (%s)", (driver: DatabaseDriver) => {
  let world: CallsWorld;
  let agent: Requester;
  let listener: GatewayListener;
  const token = () => `t-${randomBytes(6).toString("hex")}`;
  const approver = () => ({ kind: "operator" as const, id: world.approvers[0]?.userId ?? "" });
  const request = (t: string) =>
    executeToolCall(world.handle.db, {
      tenantId: world.tenantId,
      requester: agent,
      tool: "fixture__record",
      arguments: { token: t },
    });
  const ranTimes = (t: string) => world.recorded().filter((r) => r === t).length;
  const eventTypes = async (callId: string) =>
    (
      await world.handle.db
        .select({ type: events.type })
        .from(events)
        .where(eq(events.callId, callId))
        .orderBy(events.id)
    ).map((e) => e.type);
  const readCall = async (callId: string) =>
    (await world.handle.db.select().from(calls).where(eq(calls.id, callId)))[0];
  /** A pending call, approved as a process would have approved it before dying at once. */
  const approvedByDeadProcess = async (t: string, startBy: Date, runner = "switchboard:gone") => {
    const pending = await request(t);
    expect(pending.status).toBe("pending_approval");
    const now = new Date();
    await world.handle.db
      .update(approvals)
      .set({ status: "approved", decidedBy: approver().id, decidedAt: now })
      .where(eq(approvals.callId, pending.id));
    await world.handle.db
      .update(calls)
      .set({ status: "approved", startBy, runner })
      .where(eq(calls.id, pending.id));
    return pending.id;
  };
  const gatewayCall = async (args: Record<string, unknown>, meta?: Record<string, unknown>) => {
    const res = await fetch(`${listener.base}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${world.agent.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "fixture__record", arguments: args, ...(meta ? { _meta: meta } : {}) },
      }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: CallToolResult }).result;
  };
  const text = (result: CallToolResult) =>
    result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    agent = { kind: "principal", id: world.agent.id, name: world.agent.name };
    listener = await listenGateway();
  });
  afterAll(async () => {
    await listener?.close();
    await world?.close();
  });

  it("commits the decision, the claim to start (runner, start deadline) and call.approved together", async () => {
    vi.stubEnv("SWITCHBOARD_APPROVED_START_SECONDS", "120");
    try {
      const t = token();
      const pending = await request(t);
      const decided = await decideApproval(world.handle.db, {
        tenantId: world.tenantId,
        id: pending.id,
        decision: "approve",
        input: {},
        decider: approver(),
      });
      // Returned at the decision: call.approved is already on record, whatever happens next.
      expect(await eventTypes(pending.id)).toEqual(
        expect.arrayContaining(["call.requested", "call.approval_required", "call.approved"]),
      );
      const row = await readCall(pending.id);
      const decidedAt = new Date(decided.approval?.decidedAt ?? 0).getTime();
      expect(row?.startBy?.getTime()).toBe(decidedAt + 120_000);
      await eventually(async () => (ranTimes(t) === 1 ? true : undefined), "the run");
    } finally {
      vi.unstubAllEnvs();
      vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
    }
  });

  it("runs an approved call whose runner stopped exactly once, however many processes recover it", async () => {
    const t = token();
    const callId = await approvedByDeadProcess(t, new Date(Date.now() + 60_000));
    // Two recoveries and a direct run race for the claim; which one wins varies (a recovery that
    // looks after the winner's claim finds nothing to do) — the count of runs must not.
    await Promise.all([
      recoverApprovedCalls(world.handle.db, ["switchboard:gone"]),
      recoverApprovedCalls(world.handle.db, ["switchboard:gone"]),
      runApprovedCall(world.handle.db, { tenantId: world.tenantId, callId }),
    ]);
    const done = await waitForCall(world.handle.db, {
      tenantId: world.tenantId,
      reader: { kind: "workspace" },
      callId,
      timeoutMs: 20_000,
    });
    expect(done.status).toBe("succeeded");
    expect(ranTimes(t)).toBe(1);
    expect((await eventTypes(callId)).filter((type) => type === "call.started")).toHaveLength(1);
  });

  it("expires an approved call not started by its deadline instead of running it late", async () => {
    const t = token();
    const callId = await approvedByDeadProcess(t, new Date(Date.now() - 1_000));
    // A waiter that comes back for it (switchboard__wait_call) offers to run it: it is refused.
    const seen = await waitForCall(world.handle.db, {
      tenantId: world.tenantId,
      reader: { kind: "workspace" },
      callId,
      timeoutMs: 10_000,
    });
    expect(seen).toMatchObject({ status: "expired", error: { code: "not_started" } });
    expect(seen.error?.message).toMatch(/^Approved at .* but not started within -?\d+ s; not run\./);
    expect(await runApprovedCall(world.handle.db, { tenantId: world.tenantId, callId })).toBeUndefined();
    expect(await recoverApprovedCalls(world.handle.db, ["switchboard:gone"])).toBe(0);
    expect((await eventTypes(callId)).filter((type) => type === "call.expired")).toHaveLength(1);
    expect(await eventTypes(callId)).not.toContain("call.started");
    expect(ranTimes(t)).toBe(0);
  });

  it("lets the approval set its own start window", async () => {
    const pending = await request(token());
    const decided = await decideApproval(world.handle.db, {
      tenantId: world.tenantId,
      id: pending.id,
      decision: "approve",
      input: { startWithinSeconds: 7 },
      decider: approver(),
    });
    const row = await readCall(pending.id);
    expect(row?.startBy?.getTime()).toBe(new Date(decided.approval?.decidedAt ?? 0).getTime() + 7_000);
    await expect(
      decideApproval(world.handle.db, {
        tenantId: world.tenantId,
        id: (await request(token())).id,
        decision: "approve",
        input: { startWithinSeconds: 0 },
        decider: approver(),
      }),
    ).rejects.toMatchObject({ code: "validation" });
  });

  it.runIf(driver === "postgres")(
    "the stopped-runner sweep starts approved calls of a stopped process and expires overdue ones",
    async () => {
      const [fresh, stale] = [token(), token()];
      const freshId = await approvedByDeadProcess(fresh, new Date(Date.now() + 60_000), "switchboard:dead-1");
      const staleId = await approvedByDeadProcess(stale, new Date(Date.now() - 1), "switchboard:dead-2");
      const sweeper = new StoppedRunnerSweeper(world.handle.db);
      // Overdue ones at the first sweep, whoever holds them; a stopped runner's only at the second.
      await sweeper.sweep();
      expect((await readCall(staleId))?.status).toBe("expired");
      expect((await readCall(freshId))?.status).toBe("approved");
      await sweeper.sweep();
      await eventually(
        async () => ((await readCall(freshId))?.status === "succeeded" ? true : undefined),
        "run",
      );
      expect(ranTimes(fresh)).toBe(1);
      expect(ranTimes(stale)).toBe(0);
    },
  );

  it("attaches a gateway retry with the same _meta idempotency key to the call it names", async () => {
    const t = token();
    const meta = { "switchboard/idempotencyKey": `retry-${t}` };
    // Both wait for approval; the first request's client went away (the gateway bounds the wait).
    const first = gatewayCall({ token: t }, meta);
    let callId: string | undefined;
    await eventually(async () => {
      const [row] = await world.handle.db
        .select({ id: calls.id })
        .from(calls)
        .where(and(eq(calls.requesterId, world.agent.id), eq(calls.idempotencyKey, `retry-${t}`)));
      callId = row?.id;
      return callId;
    }, "the first call");
    const retry = gatewayCall({ token: t }, meta);
    await decideApproval(world.handle.db, {
      tenantId: world.tenantId,
      id: callId ?? "",
      decision: "approve",
      input: {},
      decider: approver(),
    });
    expect(text(await retry)).toContain(t);
    expect(text(await first)).toContain(t);
    const keyed = await world.handle.db
      .select()
      .from(calls)
      .where(eq(calls.idempotencyKey, `retry-${t}`));
    expect(keyed.map((c) => c.id)).toEqual([callId]);
    expect(ranTimes(t)).toBe(1);

    // The same key for other arguments is refused, saying so; a key that is not a string too.
    expect(text(await gatewayCall({ token: "other" }, meta))).toMatch(/already used for another call/);
    const badKey = await gatewayCall({ token: t }, { "switchboard/idempotencyKey": 42 });
    expect(badKey.isError).toBe(true);
    expect(text(badKey)).toMatch(/must be a string/);
  });

  it("shows identical pending requests as one item with a count, and decides them all once each", async () => {
    const [t, other] = [token(), token()];
    const group: CallDto[] = [];
    for (let i = 0; i < 3; i++) group.push(await request(t));
    const alone = await request(other);
    const { approvals: queue } = await listApprovals(world.handle.db, {
      tenantId: world.tenantId,
      query: {},
    });
    const item = queue.find((a) => a.call.id === group[0]?.id);
    expect(item).toMatchObject({ count: 3, duplicateCallIds: [group[1]?.id, group[2]?.id] });
    expect(queue.filter((a) => group.some((c) => c.id === a.call.id))).toHaveLength(1);
    expect(queue.find((a) => a.call.id === alone.id)).toMatchObject({ count: 1, duplicateCallIds: [] });

    const decided = await decideApprovalItem(world.handle.db, {
      tenantId: world.tenantId,
      id: item?.id ?? "",
      decision: "deny",
      input: { reason: "retried three times", withDuplicates: true },
      decider: approver(),
    });
    expect(decided.duplicates.map((c) => c.id)).toEqual([group[1]?.id, group[2]?.id]);
    for (const call of group) {
      expect((await readCall(call.id))?.status).toBe("denied");
      // Each decided once, each with its own audited event.
      expect((await eventTypes(call.id)).filter((type) => type === "call.denied")).toHaveLength(1);
    }
    await expect(
      decideApprovalItem(world.handle.db, {
        tenantId: world.tenantId,
        id: item?.id ?? "",
        decision: "approve",
        input: { withDuplicates: true },
        decider: approver(),
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect((await readCall(alone.id))?.status).toBe("pending_approval");
    expect(ranTimes(t)).toBe(0);
  });
});
