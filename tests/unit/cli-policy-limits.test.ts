import { describe, expect, it } from "vitest";
import { applied } from "@/cli/commands/policy-limits";

/** `switchboard policy limits` changes only what its options name: the REST PUT takes the whole policy. */
const current = {
  principal: { callsPerMinute: 60, concurrentCalls: null, pendingApprovals: 5 },
  server: { callsPerMinute: null, concurrentCalls: 4 },
  principals: { "agent-a": { callsPerMinute: 10 } },
  servers: {},
};

describe("switchboard policy limits", () => {
  it("without a change option it changes nothing", () => {
    expect(applied(current, { principal: "agent-a" })).toBeUndefined();
  });

  it("changes the defaults of principals and servers alike, waiting-for-approval only for principals", () => {
    expect(applied(current, { inFlight: 2, pending: 9 })).toEqual({
      ...current,
      principal: { callsPerMinute: 60, concurrentCalls: 2, pendingApprovals: 9 },
      server: { callsPerMinute: null, concurrentCalls: 2 },
    });
  });

  it("merges into one principal's override and keeps its other fields; --inherit removes it", () => {
    expect(applied(current, { principal: "agent-a", inFlight: null })?.principals).toEqual({
      "agent-a": { callsPerMinute: 10, concurrentCalls: null },
    });
    expect(applied(current, { principal: "agent-a", inherit: true })?.principals).toEqual({});
    expect(applied(current, { server: "fixture", perMinute: 30 })?.servers).toEqual({
      fixture: { callsPerMinute: 30 },
    });
  });
});
