import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { calls, events } from "@/db/schema";
import { openCallIntents, recordFinishedCall, recordRunningCall } from "@/lib/calls/call-journal";
import type { CallView } from "@/lib/calls/call-view";
import { getCall, listCalls } from "@/lib/calls/read-calls";
import type { NewCall } from "@/lib/calls/record-call";
import { failInterruptedCalls } from "@/lib/calls/recover-interrupted";
import { StoppedRunnerSweeper } from "@/lib/calls/stopped-runners";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { openProcessTestDatabase, openTestDatabase } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";

/** A call row as a run left it, with only what a test varies given. */
const callRow = (
  row: Pick<typeof calls.$inferInsert, "id" | "tenantId" | "status"> & Partial<typeof calls.$inferInsert>,
): typeof calls.$inferInsert => ({
  requesterKind: "principal",
  requesterId: "agent",
  toolName: "echo",
  gatewayName: "local-tools__echo",
  effect: "read",
  arguments: { text: "hi" },
  startedAt: new Date(),
  ...row,
});

describe("calls a stopped Switchboard left running (embedded PGlite)", () => {
  let handle: ProcessDatabase;

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
  });
  afterAll(async () => {
    await handle?.close();
  });

  const insertCall = async (id: string, status: "running" | "succeeded") => {
    await handle.db.insert(calls).values(callRow({ id, tenantId: handle.defaultTenant.id, status }));
  };

  it("ends them as failed, saying the outcome is unknown, with their event; finished calls stay", async () => {
    await insertCall("left-running", "running");
    await insertCall("done-before", "succeeded");

    expect(await failInterruptedCalls(handle.db)).toBe(1);

    const [left] = await handle.db.select().from(calls).where(eq(calls.id, "left-running"));
    expect(left).toMatchObject({ status: "failed", errorCode: "internal" });
    expect(left?.errorMessage).toMatch(/stopped while this call was running/);
    expect(left?.finishedAt).toBeInstanceOf(Date);
    const [done] = await handle.db.select().from(calls).where(eq(calls.id, "done-before"));
    expect(done?.status).toBe("succeeded");
    const timeline = await handle.db
      .select({ type: events.type })
      .from(events)
      .where(eq(events.callId, "left-running"));
    expect(timeline.map((e) => e.type)).toEqual(["call.failed"]);

    // Nothing left to end the next time.
    expect(await failInterruptedCalls(handle.db)).toBe(0);
  });
});

describe("the call intent log (PGlite on disk)", () => {
  // On embedded PGlite an allowed call is on record in the intent log before it runs, and its row
  // follows (lib/calls/call-journal.ts). A stop in between must still leave it on record.
  let folder: string;
  let handles: DatabaseHandle[] = [];
  const open = async (name: string) => {
    const handle = await openDatabase({ driver: "pglite", dataDir: path.join(folder, name) });
    handles.push(handle);
    return handle;
  };
  const intentsOf = (name: string) => path.join(folder, name, "call-intents.log");
  const withTenant = async (handle: DatabaseHandle) => {
    await (handle.client as PGlite).exec(
      `insert into tenants (id, slug, name) values ('ws-1', 'ws-1', 'One') on conflict do nothing`,
    );
    return handle;
  };
  const rowOf = async (handle: DatabaseHandle, id: string) =>
    (await handle.db.select().from(calls).where(eq(calls.id, id)))[0];
  const timelineOf = async (handle: DatabaseHandle, id: string) =>
    handle.db
      .select({ type: events.type, createdAt: events.createdAt })
      .from(events)
      .where(eq(events.callId, id))
      .orderBy(events.id);

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), "switchboard-intents-"));
  });
  afterEach(async () => {
    for (const handle of handles) await handle.close().catch(() => {});
    handles = [];
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const newCall = (text: string): NewCall => ({
    id: randomUUID(),
    tenantId: "ws-1",
    requester: { kind: "principal", id: "agent-1", name: "agent one" },
    gatewayName: "local-tools__echo",
    target: { serverId: "server-1", serverName: "local-tools", toolName: "echo", effect: "read" },
    decision: { kind: "allow" },
    arguments: { text },
    sealedArguments: null,
    idempotencyKey: undefined,
    expirySeconds: 60,
  });
  const succeeded = (view: CallView, text: string) => ({
    view,
    ending: {
      status: "succeeded" as const,
      result: { content: [{ type: "text", text }] },
      errorCode: null,
      errorMessage: null,
      durationMs: 1,
      finishedAt: new Date(),
      sealedArguments: null,
    },
    event: { type: "call.succeeded" as const, durationMs: 1, isError: false },
  });

  it("is written from the log at the next start and ended as interrupted; a torn line is skipped", async () => {
    const first = await withTenant(await open("crash"));
    // Rows of running calls wait for their ending here (no 50 ms on a slow machine may decide it).
    expect(await openCallIntents(first.db, intentsOf("crash"), { startDeferMs: 600_000 })).toBe(0);

    const ended = await recordRunningCall(first.db, newCall("ended in time"));
    // Another call still running: its line must outlive the first call's row.
    const running = await recordRunningCall(first.db, newCall("still running"));
    await recordFinishedCall(first.db, succeeded(ended, "ended in time"));
    expect(await rowOf(first, ended.call.id)).toMatchObject({ status: "succeeded" });
    expect(readFileSync(intentsOf("crash"), "utf8")).toContain(running.call.id);
    expect(await rowOf(first, running.call.id)).toBeUndefined();

    // Stopped before the running call's row was written (the database closes, as in a crash).
    await first.close();
    appendFileSync(intentsOf("crash"), '{"callId":"torn-line","val');

    const second = await open("crash");
    // Only the missing call is written; the one already in the database is left as it is.
    expect(await openCallIntents(second.db, intentsOf("crash"))).toBe(1);
    expect(await failInterruptedCalls(second.db)).toBe(1);
    expect(await rowOf(second, ended.call.id)).toMatchObject({ status: "succeeded", errorMessage: null });
    expect(await rowOf(second, running.call.id)).toMatchObject({
      status: "failed",
      arguments: { text: "still running" },
      errorMessage: expect.stringMatching(/stopped while this call was running/),
    });
    expect((await timelineOf(second, ended.call.id)).map((e) => e.type)).toEqual([
      "call.requested",
      "call.started",
      "call.succeeded",
    ]);
    expect((await timelineOf(second, running.call.id)).map((e) => e.type)).toEqual([
      "call.requested",
      "call.started",
      "call.failed",
    ]);
    expect(readFileSync(intentsOf("crash"), "utf8")).toBe("");
  });

  it("writes a call still running after a while as running, dated when it started", async () => {
    const handle = await withTenant(await open("slow"));
    await openCallIntents(handle.db, intentsOf("slow"), { startDeferMs: 20 });

    const slow = await recordRunningCall(handle.db, newCall("slow"));
    expect(readFileSync(intentsOf("slow"), "utf8")).toContain(slow.call.id);
    await eventually(async () => (await rowOf(handle, slow.call.id))?.status, "the start written");
    const [requested, started] = await timelineOf(handle, slow.call.id);
    expect(requested?.createdAt.getTime()).toBe(slow.call.createdAt.getTime());
    expect(started?.createdAt.getTime()).toBe(slow.call.startedAt?.getTime());
    await recordFinishedCall(handle.db, succeeded(slow, "slow"));
    expect(await rowOf(handle, slow.call.id)).toMatchObject({ status: "succeeded" });
    expect(readFileSync(intentsOf("slow"), "utf8")).toBe("");
  });

  it("has a call read by id or in a list wait for its row and its ending", async () => {
    const handle = await withTenant(await open("read"));
    await openCallIntents(handle.db, intentsOf("read"), { startDeferMs: 600_000 });
    const reader = { tenantId: "ws-1", reader: { kind: "workspace" as const } };
    const fresh = await recordRunningCall(handle.db, newCall("read at once"));
    expect(await rowOf(handle, fresh.call.id)).toBeUndefined();
    const read = await getCall(handle.db, { ...reader, callId: fresh.call.id });
    expect(read.call).toMatchObject({ id: fresh.call.id, status: "running" });
    expect(read.timeline.map((e) => e.type)).toEqual(["call.requested", "call.started"]);

    // Its ending, queued right after the answer went out, is what a read right after sees.
    void recordFinishedCall(handle.db, succeeded(fresh, "read at once"));
    const after = await getCall(handle.db, { ...reader, callId: fresh.call.id });
    expect(after.call.status).toBe("succeeded");

    // A list shows a call still running whose row would otherwise come later.
    const listed = await recordRunningCall(handle.db, newCall("listed at once"));
    const { calls: page } = await listCalls(handle.db, { ...reader, query: {} });
    expect(page.map((c) => [c.id, c.status])).toContainEqual([listed.call.id, "running"]);
  });

  it("keeps a read's kind through the journal: deferred and whole, written first, and from the log", async () => {
    const handle = await withTenant(await open("kinds"));
    await openCallIntents(handle.db, intentsOf("kinds"), { startDeferMs: 600_000 });
    const read = (text: string): NewCall => ({
      ...newCall(text),
      kind: "resource_read",
      gatewayName: "notes://plan",
      target: { serverId: "server-1", serverName: "notes", toolName: "notes://plan", effect: "read" },
    });
    // Deferred start, then ended: one insert of the whole call.
    const whole = await recordRunningCall(handle.db, read("whole"));
    await recordFinishedCall(handle.db, succeeded(whole, "whole"));
    expect(await rowOf(handle, whole.call.id)).toMatchObject({
      kind: "resource_read",
      status: "succeeded",
      toolName: "notes://plan",
    });
    // Deferred start written on its own (a read of the history asks for it), then ended.
    const started = await recordRunningCall(handle.db, { ...read("started"), kind: "prompt_get" });
    const listed = await listCalls(handle.db, {
      tenantId: "ws-1",
      reader: { kind: "workspace" },
      query: { kind: "prompt_get" },
    });
    expect(listed.calls.map((call) => [call.id, call.kind, call.status])).toEqual([
      [started.call.id, "prompt_get", "running"],
    ]);
    await recordFinishedCall(handle.db, succeeded(started, "started"));
    expect(await rowOf(handle, started.call.id)).toMatchObject({ kind: "prompt_get", status: "succeeded" });
    // The kind filter leaves tool calls out, and the events carry the kind.
    const tools = await listCalls(handle.db, {
      tenantId: "ws-1",
      reader: { kind: "workspace" },
      query: { kind: "tool_call" },
    });
    expect(tools.calls.map((call) => call.id)).not.toContain(whole.call.id);
    const [event] = await handle.db
      .select({ data: events.data })
      .from(events)
      .where(eq(events.callId, whole.call.id))
      .limit(1);
    expect(event?.data).toMatchObject({ kind: "resource_read", tool: "notes://plan" });
  });

  it("replays an intent logged before calls had a kind as a tool call", async () => {
    const first = await withTenant(await open("old-intent"));
    await openCallIntents(first.db, intentsOf("old-intent"), { startDeferMs: 600_000 });
    const running = await recordRunningCall(first.db, newCall("old"));
    await first.close();
    // The line as an earlier version wrote it: the start's values without the trailing kind.
    const [line] = readFileSync(intentsOf("old-intent"), "utf8").trim().split("\n");
    const intent = JSON.parse(line ?? "{}") as { callId: string; values: Array<string | null> };
    expect(intent.values.at(-1)).toBe("tool_call");
    rmSync(intentsOf("old-intent"));
    appendFileSync(
      intentsOf("old-intent"),
      `${JSON.stringify({ callId: intent.callId, values: intent.values.slice(0, -1) })}\n`,
    );
    const second = await open("old-intent");
    expect(await openCallIntents(second.db, intentsOf("old-intent"))).toBe(1);
    expect(await rowOf(second, running.call.id)).toMatchObject({ kind: "tool_call", status: "running" });
  });

  it("without an open log, writes the call before it runs", async () => {
    const handle = await withTenant(await open("no-log"));
    const call = await recordRunningCall(handle.db, newCall("no log"));
    expect(await rowOf(handle, call.call.id)).toMatchObject({ status: "running" });
  });
});

describe("calls a stopped Switchboard process left running (shared PostgreSQL)", () => {
  let handle: DatabaseHandle;
  const client = () => handle.client as postgres.Sql;

  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
    await client()`insert into tenants (id, slug, name) values ('ws-1', 'ws-1', 'One')`;
  });
  afterAll(async () => {
    await handle?.close();
  });

  const insertRunning = async (runner: string | null | undefined) => {
    const id = randomUUID();
    // undefined: the database's default, this process's connection name
    await handle.db
      .insert(calls)
      .values(
        callRow({ id, tenantId: "ws-1", status: "running", ...(runner === undefined ? {} : { runner }) }),
      );
    return id;
  };
  const statusOf = async (id: string) =>
    (await handle.db.select({ status: calls.status }).from(calls).where(eq(calls.id, id)))[0]?.status;

  it("ends the calls of a process with no connection left at two sweeps in a row; others run on", async () => {
    const gone = await insertRunning(`switchboard:${randomUUID()}`);
    const ours = await insertRunning(undefined);
    const unnamed = await insertRunning(null);
    const [row] = await handle.db.select({ runner: calls.runner }).from(calls).where(eq(calls.id, ours));
    expect(row?.runner).toMatch(/^switchboard:/);

    const sweeper = new StoppedRunnerSweeper(handle.db);
    // First seen stopped: only a suspect.
    expect(await sweeper.sweep()).toBe(0);
    expect(await statusOf(gone)).toBe("running");
    expect(await sweeper.sweep()).toBe(1);
    expect(await statusOf(gone)).toBe("failed");
    expect(await statusOf(ours)).toBe("running");
    expect(await statusOf(unnamed)).toBe("running");
    const timeline = await handle.db
      .select({ type: events.type })
      .from(events)
      .where(eq(events.callId, gone));
    expect(timeline.map((e) => e.type)).toEqual(["call.failed"]);
  });

  it("leaves the calls of a process whose connections were gone for one sweep only", async () => {
    const name = `switchboard:${randomUUID()}`;
    const blipping = await insertRunning(name);
    const sweeper = new StoppedRunnerSweeper(handle.db);
    expect(await sweeper.sweep()).toBe(0);
    // The process is back (a connection under its name) by the next sweep.
    const back = postgres(inject("postgresUrl"), { max: 1, connection: { application_name: name } });
    try {
      await back`select 1`;
      expect(await sweeper.sweep()).toBe(0);
      expect(await sweeper.sweep()).toBe(0);
      expect(await statusOf(blipping)).toBe("running");
    } finally {
      await back.end();
    }
    expect(await sweeper.sweep()).toBe(0);
    expect(await sweeper.sweep()).toBe(1);
    expect(await statusOf(blipping)).toBe("failed");
  });
});
