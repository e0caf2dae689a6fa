import { describe, expect, it } from "vitest";
import { actorOf } from "@/components/events/event-actor";
import { type EventItem, groupEvents } from "@/components/events/event-groups";
import type { RecordedEvent, SwitchboardEvent } from "@/lib/events/event-types";

/**
 * The Events page's grouping, over lists shaped as the page shows them (newest first): what
 * collapses into one "× N" row, and — as important — what must stay apart.
 */

let nextId = 1000;
function recorded(event: SwitchboardEvent): RecordedEvent {
  const id = nextId--;
  return {
    ...event,
    id,
    tenantId: "t1",
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, id % 60)).toISOString(),
  };
}

const server = (name: string) => ({ serverId: `id-${name}`, serverName: name });

/** One round of a stdio crash loop as the runtime records it, newest first. */
function crashRound(name: string, pid: number): RecordedEvent[] {
  return [
    recorded({
      type: "server.state_changed",
      ...server(name),
      from: "connecting",
      to: "disconnected",
      error: "process exited with code 3",
    }),
    recorded({ type: "server.process_exited", ...server(name), pid, exitCode: 3, signal: null }),
    recorded({ type: "server.state_changed", ...server(name), from: "disconnected", to: "connecting" }),
  ];
}

const health = (name: string, ok: boolean, latencyMs: number | null) =>
  recorded({
    type: "server.health_checked",
    ...server(name),
    ok,
    latencyMs,
    error: ok ? undefined : "timeout",
  });

/** The shape of the result, readable in a failure: "1" a single row, "3x13" a group of 3 × 13. */
const shape = (items: EventItem[]) =>
  items.map((item) => (item.kind === "single" ? "1" : `${item.cycle.length}x${item.repeats}`));

describe("groupEvents", () => {
  it("collapses identical consecutive events into one group, counting them, newest first", () => {
    const events = [
      health("flaky", false, 12),
      health("flaky", false, 40),
      health("flaky", false, null),
      health("other", true, 3),
    ];
    const items = groupEvents(events);
    expect(shape(items)).toEqual(["1x3", "1"]);
    const group = items[0];
    if (group?.kind !== "group") throw new Error("expected a group");
    expect(group.events.map((e) => e.id)).toEqual(events.slice(0, 3).map((e) => e.id));
    // Keyed by its oldest event: a live arrival on top keeps the same row (and its open state).
    expect(group.key).toBe(`group-${events[2]?.id}`);
  });

  it("collapses a crash loop's repeating cycle (state → exit → state) into one group, whatever the pids", () => {
    const loop = Array.from({ length: 13 }, (_, round) => crashRound("crasher", 4000 + round)).flat();
    const before = recorded({ type: "server.registered", ...server("crasher") });
    const items = groupEvents([...loop, before]);
    expect(shape(items)).toEqual(["3x13", "1"]);
    const group = items[0];
    if (group?.kind !== "group") throw new Error("expected a group");
    expect(group.events).toHaveLength(39);
    expect(group.cycle.map((e) => e.type)).toEqual([
      "server.state_changed",
      "server.process_exited",
      "server.state_changed",
    ]);
  });

  it("a live arrival that continues the cycle extends the same group", () => {
    const loop = Array.from({ length: 4 }, (_, round) => crashRound("crasher", round)).flat();
    const first = groupEvents(loop)[0];
    // The next round starts with the state change back to connecting: a shifted phase, same loop.
    const [newest] = crashRound("crasher", 99).slice(2);
    const after = groupEvents([newest as RecordedEvent, ...loop]);
    expect(shape(after)).toEqual(["3x4"]);
    expect(after[0]?.kind === "group" && after[0].events).toHaveLength(13);
    expect(after[0]?.kind === "group" && after[0].key).toBe(first?.kind === "group" && first.key);
  });

  it("never merges two servers, even failing in step", () => {
    const interleaved = [
      health("a", false, 1),
      health("b", false, 1),
      health("a", false, 1),
      health("b", false, 1),
      health("a", false, 1),
      health("b", false, 1),
    ];
    expect(shape(groupEvents(interleaved))).toEqual(["1", "1", "1", "1", "1", "1"]);
  });

  it("never merges events whose meaningful fields differ: another state, another error, another actor", () => {
    const changedBy = (name: string) => ({ kind: "operator" as const, id: `u-${name}`, name });
    expect(
      shape(
        groupEvents([
          recorded({
            type: "server.state_changed",
            ...server("x"),
            from: "ready",
            to: "degraded",
            error: "slow",
          }),
          recorded({
            type: "server.state_changed",
            ...server("x"),
            from: "ready",
            to: "degraded",
            error: "gone",
          }),
          recorded({ type: "server.updated", ...server("x"), by: changedBy("Ada") }),
          recorded({ type: "server.updated", ...server("x"), by: changedBy("Bob") }),
          recorded({ type: "server.updated", ...server("x"), by: changedBy("Bob") }),
        ]),
      ),
    ).toEqual(["1", "1", "1", "1x2"]);
  });

  it("never merges calls: each is a call of its own, however alike", () => {
    const call = (callId: string) =>
      recorded({
        type: "call.failed",
        callId,
        serverId: "id-x",
        serverName: "x",
        tool: "x__echo",
        effect: "read",
        requester: { kind: "principal", id: "p1", name: "agent" },
        durationMs: null,
        errorCode: "upstream_error",
      });
    expect(shape(groupEvents([call("c1"), call("c2"), call("c3")]))).toEqual(["1", "1", "1"]);
  });

  it("needs two full rounds to call it a cycle; the partial round before them joins the group", () => {
    const twoRounds = [...crashRound("c", 1), ...crashRound("c", 2)];
    expect(shape(groupEvents(twoRounds.slice(0, 5)))).toEqual(["1", "1", "1", "1", "1"]);
    expect(shape(groupEvents(twoRounds))).toEqual(["3x2"]);
    const withPartial = [...twoRounds, ...crashRound("c", 3).slice(0, 2)];
    const items = groupEvents(withPartial);
    expect(shape(items)).toEqual(["3x2"]);
    expect(items[0]?.kind === "group" && items[0].events).toHaveLength(8);
  });

  it("leaves an empty list empty", () => {
    expect(groupEvents([])).toEqual([]);
  });
});

describe("actorOf", () => {
  it("names the person, the key, the agent or Switchboard", () => {
    expect(
      actorOf(
        recorded({ type: "server.updated", ...server("x"), by: { kind: "operator", id: "u", name: "Ada" } }),
      ),
    ).toEqual({ kind: "person", name: "Ada" });
    expect(
      actorOf(
        recorded({ type: "server.deleted", ...server("x"), by: { kind: "api_key", id: "k", name: "ci" } }),
      ),
    ).toEqual({ kind: "key", name: "ci" });
    expect(actorOf(health("x", false, 1))).toEqual({ kind: "system", name: "Switchboard" });
    const ref = {
      callId: "c",
      serverId: "id-x",
      serverName: "x",
      tool: "x__echo",
      effect: "read" as const,
      requester: { kind: "principal" as const, id: "p", name: "claude-code" },
    };
    expect(actorOf(recorded({ type: "call.requested", ...ref }))).toEqual({
      kind: "agent",
      name: "claude-code",
    });
    expect(
      actorOf(recorded({ type: "call.approved", ...ref, decidedBy: 'API key "ops"', reason: null })),
    ).toEqual({ kind: "key", name: "ops" });
    expect(actorOf(recorded({ type: "call.denied", ...ref, decidedBy: "Bob", reason: "no" }))).toEqual({
      kind: "person",
      name: "Bob",
    });
    expect(actorOf(recorded({ type: "call.denied", ...ref, decidedBy: null, reason: "no grant" }))).toEqual({
      kind: "system",
      name: "Switchboard",
    });
  });

  it("says nothing rather than guess when an old event did not keep who did it", () => {
    expect(actorOf(recorded({ type: "server.registered", ...server("x") }))).toBeNull();
  });
});
