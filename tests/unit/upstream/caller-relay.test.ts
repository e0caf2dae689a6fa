import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  attachCaller,
  type CallerChannel,
  callerOf,
  InFlightCalls,
  type RelayedRequest,
} from "@/lib/upstream/caller-relay";

const sampling: RelayedRequest = { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } };

function caller(owner: string, options: { refuses?: string } = {}): CallerChannel {
  return {
    owner,
    refusal: () => options.refuses,
    request: async () => ({}),
    log: () => {},
  };
}

describe("routing what a downstream server sends to the caller whose call runs", () => {
  const cases: Array<{
    name: string;
    inFlight: CallerChannel[];
    expected: { kind: "relay"; owner: string } | { kind: "refuse"; code: ErrorCode; reason: RegExp };
  }> = [
    {
      name: "no call running: refused",
      inFlight: [],
      expected: { kind: "refuse", code: ErrorCode.InvalidRequest, reason: /no call is running/ },
    },
    {
      name: "one caller that can take it: relayed",
      inFlight: [caller("a")],
      expected: { kind: "relay", owner: "a" },
    },
    {
      name: "one caller that cannot take it: refused with its reason",
      inFlight: [caller("a", { refuses: "no sampling declared" })],
      expected: { kind: "refuse", code: ErrorCode.MethodNotFound, reason: /no sampling declared/ },
    },
    {
      name: "several calls of one client: relayed to that client",
      inFlight: [caller("a"), caller("a")],
      expected: { kind: "relay", owner: "a" },
    },
    {
      name: "calls of two clients, both able: ambiguous, refused",
      inFlight: [caller("a"), caller("b")],
      expected: { kind: "refuse", code: ErrorCode.InvalidRequest, reason: /which of the 2 clients/ },
    },
    {
      name: "calls of two clients, only one able: still ambiguous (the other may be the owner)",
      inFlight: [caller("a", { refuses: "no sampling" }), caller("b")],
      expected: { kind: "refuse", code: ErrorCode.InvalidRequest, reason: /which of the 2 clients/ },
    },
  ];

  for (const { name, inFlight, expected } of cases) {
    it(name, () => {
      const calls = new InFlightCalls();
      for (const channel of inFlight) calls.enter(channel);
      const route = calls.route(sampling);
      if (expected.kind === "relay") {
        expect(route).toMatchObject({ kind: "relay", caller: { owner: expected.owner } });
      } else {
        expect(route).toMatchObject({ kind: "refuse", code: expected.code });
        expect(route.kind === "refuse" ? route.reason : "").toMatch(expected.reason);
      }
    });
  }

  it("forgets a call when it ends: the remaining caller owns what comes next", () => {
    const calls = new InFlightCalls();
    const a = caller("a");
    const leaveB = calls.enter(caller("b"));
    calls.enter(a);
    expect(calls.route(sampling).kind).toBe("refuse");
    expect(calls.logTarget()).toBeUndefined();
    leaveB();
    expect(calls.route(sampling)).toEqual({ kind: "relay", caller: a });
    expect(calls.logTarget()).toBe(a);
  });

  it("finds the caller by the call's signal, until the call detaches it", () => {
    const signal = new AbortController().signal;
    const a = caller("a");
    const detach = attachCaller(signal, a);
    expect(callerOf(signal)).toBe(a);
    detach();
    expect(callerOf(signal)).not.toBe(a);
  });

  it("counts a call without a gateway client (REST, CLI) as a caller that takes nothing", () => {
    const calls = new InFlightCalls();
    calls.enter(callerOf(undefined));
    const alone = calls.route(sampling);
    expect(alone).toMatchObject({ kind: "refuse", code: ErrorCode.MethodNotFound });
    expect(alone.kind === "refuse" ? alone.reason : "").toMatch(/REST API/);
    calls.enter(caller("a"));
    expect(calls.route(sampling)).toMatchObject({ kind: "refuse", code: ErrorCode.InvalidRequest });
    expect(calls.logTarget()).toBeUndefined();
  });
});
