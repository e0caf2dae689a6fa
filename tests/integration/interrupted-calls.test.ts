import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calls, events } from "@/db/schema";
import { failInterruptedCalls } from "@/lib/calls/recover-interrupted";
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
