import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "@/lib/events/event-types";
import { EventHub } from "@/lib/events/hub";
import { startEventMetrics } from "@/lib/observability/event-metrics";
import { LabelCap, OTHER_LABEL } from "@/lib/observability/label-cap";
import { LABEL_CAP, processMetrics, trackSseSubscriber } from "@/lib/observability/metrics";
import { parseScrape } from "../fixtures/prometheus";

/*
 * What the metrics make of events, without a database: a hub whose events are handed over as the
 * call journal hands them (publishRecorded), then the registry read back through the Prometheus
 * text parser. This file's process has metrics of its own, so counts start at zero.
 */

let nextId = 1;
function callEnded(principal: string, tool: string, at = 0): RecordedEvent[] {
  const callId = `call-${nextId}`;
  const ref = {
    callId,
    kind: "tool_call" as const,
    serverId: "srv-1",
    serverName: "files",
    tool,
    effect: "read" as const,
    requester: { kind: "principal" as const, id: `p-${principal}`, name: principal },
    tenantId: "t-1",
  };
  return [
    { ...ref, type: "call.requested", id: nextId++, createdAt: new Date(at).toISOString() },
    {
      ...ref,
      type: "call.succeeded",
      durationMs: 250,
      isError: false,
      id: nextId++,
      createdAt: new Date(at + 1500).toISOString(),
    },
  ];
}

function serverMoved(from: string, to: string): RecordedEvent {
  return {
    type: "server.state_changed",
    serverId: "srv-1",
    serverName: "files",
    from,
    to,
    id: nextId++,
    tenantId: "t-1",
    createdAt: new Date().toISOString(),
  } as RecordedEvent;
}

const read = async () => parseScrape(await processMetrics().registry.metrics());

describe("label cap", () => {
  it("keeps the first values it sees, then says other — and a kept value stays kept", () => {
    const cap = new LabelCap(2);
    expect([cap.valueOf("a"), cap.valueOf("b"), cap.valueOf("c"), cap.valueOf("a")]).toEqual([
      "a",
      "b",
      OTHER_LABEL,
      "a",
    ]);
    expect(cap.size).toBe(2);
  });
});

describe("metrics from events", () => {
  const hub = new EventHub();
  startEventMetrics(hub);
  const hand = (events: RecordedEvent[]) => hub.publishRecorded({} as never, events);

  it(`labels at most ${LABEL_CAP} principals and tools; the rest are counted as other, none lost`, async () => {
    for (let i = 0; i < LABEL_CAP + 20; i++) hand(callEnded(`agent-${i}`, `files__tool_${i}`));
    const scrape = await read();
    const principals = scrape.labelValues("switchboard_calls_total", "principal");
    expect(principals).toHaveLength(LABEL_CAP + 1);
    expect(principals).toContain("agent-0");
    expect(principals).toContain(`agent-${LABEL_CAP - 1}`);
    expect(principals).not.toContain(`agent-${LABEL_CAP}`);
    expect(scrape.value("switchboard_calls_total", { principal: OTHER_LABEL })).toBe(20);
    expect(scrape.labelValues("switchboard_calls_total", "tool")).toHaveLength(LABEL_CAP + 1);
    expect(scrape.value("switchboard_calls_total", { tool: OTHER_LABEL })).toBe(20);
    expect(scrape.value("switchboard_calls_total")).toBe(LABEL_CAP + 20);

    // An agent seen before the cap filled keeps its own series.
    hand(callEnded("agent-0", "files__tool_0"));
    expect((await read()).value("switchboard_calls_total", { principal: "agent-0" })).toBe(2);
  });

  it("times a call from its request to its end, and the server's part of it separately", async () => {
    const before = await read();
    hand(callEnded("timed", "files__timed", 10_000));
    const after = await read();
    const total = "switchboard_call_duration_seconds";
    expect(after.count(total, { server: "files", outcome: "succeeded" })).toBe(
      before.count(total, { server: "files", outcome: "succeeded" }) + 1,
    );
    // 1.5 s from request to end, 0.25 s downstream: the sums say so.
    const text = await processMetrics().registry.metrics();
    const sum = (name: string) => Number(new RegExp(`^${name}_sum\\{[^}]*\\} (\\S+)$`, "m").exec(text)?.[1]);
    expect(sum(total)).toBeGreaterThanOrEqual(1.5);
    expect(sum("switchboard_call_downstream_duration_seconds")).toBeCloseTo((LABEL_CAP + 22) * 0.25, 5);
  });

  it("counts a call refused by a rate limit as rate_limited, any other refusal as denied", async () => {
    const refused = (code?: string): RecordedEvent =>
      ({
        ...callEnded("limited", "files__limited")[0],
        type: "call.denied",
        decidedBy: null,
        reason: "over the limit",
        ...(code ? { code } : {}),
        id: nextId++,
      }) as RecordedEvent;
    const before = await read();
    hand([refused("rate_limited"), refused()]);
    const after = await read();
    // (Past the cap, this agent is "other": compare the outcomes' totals.)
    const moved = (outcome: string) =>
      after.value("switchboard_calls_total", { outcome }) -
      before.value("switchboard_calls_total", { outcome });
    expect(moved("rate_limited")).toBe(1);
    expect(moved("denied")).toBe(1);
  });

  it("follows a server's connection: up, down, reconnecting, crash-looping", async () => {
    hand([serverMoved("disconnected", "connecting"), serverMoved("connecting", "ready")]);
    expect((await read()).value("switchboard_server_up", { server: "files" })).toBe(1);
    hand([
      serverMoved("ready", "connecting"),
      serverMoved("connecting", "crash-loop"),
      serverMoved("crash-loop", "crash-loop"),
    ]);
    const scrape = await read();
    expect(scrape.value("switchboard_server_up", { server: "files" })).toBe(0);
    expect(scrape.value("switchboard_server_reconnects_total", { server: "files" })).toBe(1);
    expect(scrape.value("switchboard_server_crash_loops_total", { server: "files" })).toBe(1);
  });

  it("counts an event stream while it is open, once however often it is closed", async () => {
    const close = trackSseSubscriber();
    expect((await read()).value("switchboard_sse_subscribers")).toBe(1);
    close();
    close();
    expect((await read()).value("switchboard_sse_subscribers")).toBe(0);
  });

  it("does not count what another process recorded (the relay brings it; that process counts it)", async () => {
    const before = (await read()).value("switchboard_calls_total");
    for (const event of callEnded("elsewhere", "files__elsewhere")) hub.publish(event, "relay");
    expect((await read()).value("switchboard_calls_total")).toBe(before);
  });
});
