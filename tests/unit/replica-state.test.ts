import { describe, expect, it } from "vitest";
import { combineReplicaStates, type ReplicaStatusRow } from "@/lib/servers/replica-state";

/*
 * What a server's state is when replicas disagree (lib/servers/replica-state.ts): the worst among
 * the live ones, a disabled server disabled, one replica exactly as before.
 */

const at = new Date("2026-01-01T00:00:00.000Z");
const row = (replicaId: string, state: string, over: Partial<ReplicaStatusRow> = {}): ReplicaStatusRow => ({
  replicaId,
  state,
  lastError: null,
  updatedAt: at,
  live: true,
  ...over,
});
const combine = (rows: ReplicaStatusRow[], over: Partial<Parameters<typeof combineReplicaStates>[0]> = {}) =>
  combineReplicaStates({
    enabled: true,
    disabledReason: null,
    shared: undefined,
    rows,
    liveReplicaIds: rows.filter((r) => r.live).map((r) => r.replicaId),
    ...over,
  });

describe("a server's state over its replicas", () => {
  it.each([
    [["ready", "ready", "ready"], "ready", { ready: 3, of: 3 }],
    [["ready", "crash-loop", "ready"], "crash-loop", { ready: 2, of: 3 }],
    [["ready", "degraded"], "degraded", { ready: 1, of: 2 }],
    // A replica starting during a rolling deploy does not outrank a failing health check.
    [["connecting", "degraded"], "degraded", { ready: 0, of: 2 }],
    [["ready", "connecting"], "connecting", { ready: 1, of: 2 }],
    [["crash-loop", "needs-authorization"], "needs-authorization", { ready: 0, of: 2 }],
    [["disconnected", "crash-loop"], "crash-loop", { ready: 0, of: 2 }],
    // A state a newer release knows and this one does not counts as not serving.
    [["ready", "hibernating"], "hibernating", { ready: 1, of: 2 }],
  ])("%j → %s", (states, state, summary) => {
    const result = combine(states.map((s, i) => row(`r${i}`, s)));
    expect(result.state).toBe(state);
    expect(result.replicaSummary).toEqual(summary);
  });

  it("with one replica it is that replica's state and error, as before replicas were named", () => {
    const result = combine([row("host:3000", "crash-loop", { lastError: "spawn node ENOENT" })]);
    expect(result).toMatchObject({
      state: "crash-loop",
      lastError: "spawn node ENOENT",
      replicaSummary: { ready: 0, of: 1 },
    });
  });

  it("a stale replica is listed but neither sets the state nor counts", () => {
    const result = combine([row("a", "ready"), row("b", "crash-loop", { live: false })]);
    expect(result.state).toBe("ready");
    expect(result.replicaSummary).toEqual({ ready: 1, of: 1 });
    expect(result.replicas.map((r) => [r.id, r.live])).toEqual([
      ["a", true],
      ["b", false],
    ]);
  });

  it("a live replica that recorded nothing yet is 'unknown', counted, but does not set the state", () => {
    const result = combine([row("a", "ready")], { liveReplicaIds: ["a", "b"] });
    expect(result.state).toBe("ready");
    expect(result.replicaSummary).toEqual({ ready: 1, of: 2 });
    expect(result.replicas[1]).toEqual({
      id: "b",
      state: "unknown",
      lastError: null,
      updatedAt: null,
      live: true,
    });
  });

  it("a disabled server is disabled whatever the replicas say; its reason is the error", () => {
    const result = combine([row("a", "ready")], { enabled: false, disabledReason: "Refused by the policy." });
    expect(result).toMatchObject({ state: "disabled", lastError: "Refused by the policy." });
  });

  it("without live replicas: this process's pool, then the shared row, then nothing known", () => {
    const shared = { state: "ready", lastError: "old" };
    expect(combine([], { shared, own: { id: "me", state: "connecting" } }).state).toBe("connecting");
    expect(combine([], { shared })).toMatchObject({ state: "ready", lastError: "old" });
    expect(combine([]).state).toBeUndefined();
  });

  it("this process's live pool stands in for its own, older row", () => {
    const result = combine([row("me", "connecting"), row("b", "ready")], {
      own: { id: "me", state: "ready" },
    });
    expect(result.state).toBe("ready");
    expect(result.replicaSummary).toEqual({ ready: 2, of: 2 });
  });
});
