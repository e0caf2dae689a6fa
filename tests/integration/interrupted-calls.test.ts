import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calls, events } from "@/db/schema";
import { openCallIntents, recordFinishedCall, recordRunningCall } from "@/lib/calls/call-journal";
import type { NewCall } from "@/lib/calls/record-call";
import { failInterruptedCalls } from "@/lib/calls/recover-interrupted";
import { openDatabase } from "@/lib/db/client";
import type { ProcessDatabase } from "@/lib/db/process-db";
import { openProcessTestDatabase } from "../fixtures/databases";

describe("calls a stopped Switchboard left running (embedded PGlite)", () => {
  let handle: ProcessDatabase;

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
  });
  afterAll(async () => {
    await handle?.close();
  });

  const insertCall = async (id: string, status: "running" | "succeeded") => {
    await handle.db.insert(calls).values({
      id,
      tenantId: handle.defaultTenant.id,
      requesterKind: "principal",
      requesterId: "agent",
      toolName: "echo",
      gatewayName: "local-tools__echo",
      effect: "read",
      arguments: { text: "hi" },
      status,
      startedAt: new Date(),
    });
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

describe("a call whose row had not been written when Switchboard stopped (PGlite on disk)", () => {
  // On embedded PGlite an allowed call is on record in the intent log before it runs, and its row
  // follows (lib/calls/call-journal.ts). A stop in between must still leave it on record.
  let folder: string;
  const open = () => openDatabase({ driver: "pglite", dataDir: path.join(folder, "db") });
  const intentsFile = () => path.join(folder, "db", "call-intents.log");

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), "switchboard-intents-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const newCall = (tenantId: string, text: string): NewCall => ({
    id: randomUUID(),
    tenantId,
    requester: { kind: "principal", id: "agent-1", name: "agent one" },
    gatewayName: "local-tools__echo",
    target: {
      toolId: "tool-1",
      serverId: "server-1",
      serverName: "local-tools",
      serverEnabled: true,
      toolName: "echo",
      gatewayName: "local-tools__echo",
      toolEnabled: true,
      effect: "read",
      isClassified: true,
      approvalRule: "never",
      callTimeoutMs: 30_000,
    },
    decision: { kind: "allow" },
    arguments: { text },
    sealedArguments: null,
    idempotencyKey: undefined,
    expirySeconds: 60,
  });

  it("is written from the intent log at the next start and ended as interrupted; a torn line is skipped", async () => {
    const first = await open();
    await (first.client as PGlite).exec(
      `insert into tenants (id, slug, name) values ('ws-1', 'ws-1', 'One')`,
    );
    expect(await openCallIntents(first.db, intentsFile())).toBe(0);

    const ended = await recordRunningCall(first.db, newCall("ws-1", "ended in time"));
    await recordFinishedCall(first.db, {
      view: ended,
      ending: {
        status: "succeeded",
        result: { content: [{ type: "text", text: "ended in time" }] },
        errorCode: null,
        errorMessage: null,
        durationMs: 1,
        finishedAt: new Date(),
        sealedArguments: null,
      },
      event: { type: "call.succeeded", durationMs: 1, isError: false },
    });
    // Everything logged is in the database: the log is empty again.
    expect(readFileSync(intentsFile(), "utf8")).toBe("");

    // Running, and stopped before its row was written (the database closes, as in a crash).
    const running = await recordRunningCall(first.db, newCall("ws-1", "still running"));
    expect(readFileSync(intentsFile(), "utf8")).toContain(running.call.id);
    await first.close();
    appendFileSync(intentsFile(), '{"callId":"torn-line","val');

    const second = await open();
    try {
      expect(await openCallIntents(second.db, intentsFile())).toBe(1);
      expect(await failInterruptedCalls(second.db)).toBe(1);
      const rows = await second.db
        .select({ id: calls.id, status: calls.status, arguments: calls.arguments, error: calls.errorMessage })
        .from(calls)
        .orderBy(calls.createdAt);
      expect(rows).toEqual([
        { id: ended.call.id, status: "succeeded", arguments: { text: "ended in time" }, error: null },
        {
          id: running.call.id,
          status: "failed",
          arguments: { text: "still running" },
          error: expect.stringMatching(/stopped while this call was running/),
        },
      ]);
      for (const [id, last] of [
        [ended.call.id, "call.succeeded"],
        [running.call.id, "call.failed"],
      ]) {
        const timeline = await second.db
          .select({ type: events.type })
          .from(events)
          .where(eq(events.callId, id as string))
          .orderBy(events.id);
        expect(timeline.map((e) => e.type)).toEqual(["call.requested", "call.started", last]);
      }
      expect(readFileSync(intentsFile(), "utf8")).toBe("");
    } finally {
      await second.close();
    }
  });
});
