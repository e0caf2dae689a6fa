import { and, eq, inArray } from "drizzle-orm";
import { calls } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { recordCallEvent } from "./call-events";
import { loadCallView } from "./call-view";

/**
 * Calls left `running` by a Switchboard that stopped while they ran (crash, kill, power): nobody
 * will ever end them, and the tool may or may not have finished. They are ended as failed, saying
 * so, with their event — so the history shows what happened instead of a call running forever.
 *
 * Without `runners`, every running call: only safe where this process is the database's only user,
 * embedded PGlite, whose data folder is locked to one process. On a shared PostgreSQL, only the
 * calls of runners known to have stopped (lib/calls/stopped-runners.ts).
 */
export async function failInterruptedCalls(db: Database, runners?: string[]): Promise<number> {
  const ended = await db
    .update(calls)
    .set({
      status: "failed",
      errorCode: "internal",
      errorMessage:
        "Switchboard stopped while this call was running; whether the tool finished is unknown. Check the server's side before calling it again.",
      finishedAt: new Date(),
      sealedArguments: null,
    })
    .where(and(eq(calls.status, "running"), runners ? inArray(calls.runner, runners) : undefined))
    .returning({ id: calls.id, tenantId: calls.tenantId });
  for (const call of ended) {
    const view = await loadCallView(db, { tenantId: call.tenantId, callId: call.id });
    if (view)
      await recordCallEvent(db, view, { type: "call.failed", durationMs: null, errorCode: "internal" });
  }
  return ended.length;
}
