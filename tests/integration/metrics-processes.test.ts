import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tenants } from "@/db/schema";
import type { CallEventDetail } from "@/lib/calls/call-events";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import type { RecordedEvent, SwitchboardEvent } from "@/lib/events/event-types";
import { EventHub } from "@/lib/events/hub";
import { startEventMetrics } from "@/lib/observability/event-metrics";
import { createMetrics, type SwitchboardMetrics } from "@/lib/observability/metrics";
import { eventually } from "../fixtures/eventually";
import { createTestDatabase } from "../fixtures/postgres-server";
import { parseScrape } from "../fixtures/prometheus";

/*
 * Two Switchboard processes on one PostgreSQL database, each with its hub, relay and metrics (as
 * each `next start` has). Each hears the other's events through the relay — and each counts only
 * what it recorded itself, so Prometheus's sum over the processes is the true total. Also for an
 * event recorded inside a transaction, which reaches its own process only through the relay.
 */

type Process = { handle: DatabaseHandle; hub: EventHub; metrics: SwitchboardMetrics; seen: number[] };

const callEvent = (callId: string, detail: CallEventDetail): SwitchboardEvent =>
  ({
    callId,
    kind: "tool_call",
    serverId: null,
    serverName: "files",
    tool: "files__read",
    effect: "read",
    requester: { kind: "principal", id: "p-1", name: "agent-a" },
    ...detail,
  }) as SwitchboardEvent;

async function startProcess(url: string): Promise<Process> {
  const handle = await openDatabase({ driver: "postgres", url });
  const hub = new EventHub();
  const metrics = createMetrics();
  startEventMetrics(hub, metrics);
  const seen: number[] = [];
  hub.subscribe((event) => seen.push(event.id));
  await hub.startRelay(handle);
  return { handle, hub, metrics, seen };
}

const callsCounted = async (p: Process) =>
  parseScrape(await p.metrics.registry.metrics()).value("switchboard_calls_total", { principal: "agent-a" });

describe("metrics across processes on PostgreSQL", () => {
  let a: Process;
  let b: Process;
  let tenantId: string;

  beforeAll(async () => {
    const url = await createTestDatabase(inject("postgresUrl"));
    a = await startProcess(url);
    b = await startProcess(url);
    const [tenant] = await a.handle.db
      .insert(tenants)
      .values({ slug: "metrics", name: "Metrics" })
      .returning();
    tenantId = tenant?.id ?? "";
  });
  afterAll(async () => {
    await a?.handle.close();
    await b?.handle.close();
  });

  it("each process counts the calls it recorded, once, however the other hears of them", async () => {
    const record = (p: Process, event: SwitchboardEvent) => p.hub.record(p.handle.db, { tenantId, event });
    const ended: RecordedEvent[] = [];
    ended.push(
      await record(a, callEvent("call-1", { type: "call.succeeded", durationMs: 5, isError: false })),
    );
    // Inside a transaction: published on A only once it commits, through A's own relay.
    await a.handle.db.transaction(async (tx) => {
      ended.push(
        await a.hub.record(tx, {
          tenantId,
          event: callEvent("call-2", { type: "call.failed", durationMs: null, errorCode: "internal" }),
        }),
      );
    });
    ended.push(
      await record(b, callEvent("call-3", { type: "call.denied", decidedBy: null, reason: "no grant" })),
    );

    // Both processes have heard all three (so anything they would count, they have counted).
    for (const p of [a, b])
      await eventually(
        async () => (ended.every((e) => p.seen.includes(e.id)) ? true : undefined),
        "every event on both processes",
      );
    expect(await callsCounted(a)).toBe(2);
    expect(await callsCounted(b)).toBe(1);
    const outcomes = async (p: Process) =>
      parseScrape(await p.metrics.registry.metrics())
        .labelValues("switchboard_calls_total", "outcome")
        .sort();
    expect(await outcomes(a)).toEqual(["failed", "succeeded"]);
    expect(await outcomes(b)).toEqual(["denied"]);
  });
});
