import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { contentOf, fieldsOf } from "@/components/approvals/elicitation-fields";
import { contentProblems } from "@/lib/elicitations/check-content";
import { CallClock } from "@/lib/upstream/call-clock";
import {
  type CallerChannel,
  callerOf,
  InFlightCalls,
  type OperatorTarget,
  type RelayedRequest,
} from "@/lib/upstream/caller-relay";

const form = {
  type: "object",
  properties: {
    username: { type: "string", description: "Who you are" },
    age: { type: "integer", minimum: 0 },
    plan: { type: "string", enum: ["free", "pro"], enumNames: ["Free", "Pro"] },
    subscribe: { type: "boolean", default: true },
  },
  required: ["username"],
};
const elicit: RelayedRequest = {
  method: "elicitation/create",
  params: { message: "?", requestedSchema: form },
};
const urlElicit: RelayedRequest = { method: "elicitation/create", params: { mode: "url", url: "https://x" } };
const sampling: RelayedRequest = { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } };

const target = (callId: string): OperatorTarget => ({
  callId,
  hold: () => () => {},
  signal: new AbortController().signal,
});
const able = (owner: string): CallerChannel => ({
  owner,
  refusal: () => undefined,
  request: async () => ({}),
  log: () => {},
});

describe("which server questions go to an operator", () => {
  it("a form elicitation during the only call, from a caller that cannot answer: to the operator", () => {
    const calls = new InFlightCalls();
    calls.enter(callerOf(undefined), target("c1"));
    expect(calls.route(elicit)).toMatchObject({ kind: "operator", target: { callId: "c1" } });
  });

  it("sampling, roots and URL elicitations are still refused: an operator has no answer to give", () => {
    const calls = new InFlightCalls();
    calls.enter(callerOf(undefined), target("c1"));
    expect(calls.route(sampling)).toMatchObject({ kind: "refuse", code: ErrorCode.MethodNotFound });
    expect(calls.route({ method: "roots/list" })).toMatchObject({ kind: "refuse" });
    expect(calls.route(urlElicit)).toMatchObject({ kind: "refuse" });
  });

  it("two calls in flight (even of one client): refused, never a guessed call", () => {
    const calls = new InFlightCalls();
    calls.enter(callerOf(undefined), target("c1"));
    calls.enter(callerOf(undefined), target("c2"));
    expect(calls.route(elicit)).toMatchObject({ kind: "refuse", code: ErrorCode.InvalidRequest });
    const same = new InFlightCalls();
    const unreachable = callerOf(undefined);
    same.enter(unreachable, target("c1"));
    same.enter(unreachable, target("c2"));
    expect(same.route(elicit)).toMatchObject({ kind: "refuse", code: ErrorCode.MethodNotFound });
  });

  it("a caller that can answer is asked itself, with the operator as the fallback if it went away", () => {
    const calls = new InFlightCalls();
    const caller = able("a");
    calls.enter(caller, target("c1"));
    expect(calls.route(elicit)).toMatchObject({ kind: "relay", caller, fallback: { callId: "c1" } });
    expect(calls.route(sampling)).toEqual({ kind: "relay", caller });
  });

  it("a call without a record (no call id) is refused as before", () => {
    const calls = new InFlightCalls();
    calls.enter(callerOf(undefined));
    expect(calls.route(elicit)).toMatchObject({ kind: "refuse", code: ErrorCode.MethodNotFound });
  });
});

describe("an operator's answer against the server's form", () => {
  it("accepts values that fit", () => {
    expect(contentProblems(form, { username: "ada", age: 36, plan: "pro", subscribe: false })).toEqual({});
  });

  it("names each field at fault: missing, wrong type, not a choice, not a field of the form", () => {
    expect(contentProblems(form, { age: 1.5, plan: "gold", password: "x" })).toEqual({
      username: "is required",
      age: "must be a whole number",
      plan: "must be one of “free”, “pro”",
      password: "is not a field of this form",
    });
  });

  it("a form that cannot be checked accepts no values", () => {
    const broken = { type: "object", properties: { a: { type: "string", pattern: "(" } } };
    expect(contentProblems(broken, { a: "x" })).toHaveProperty("_");
  });
});

describe("the dashboard's form for a question", () => {
  it("reads the fields from requestedSchema and sends numbers as numbers, leaving empty optional ones out", () => {
    const fields = fieldsOf(form);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["username", "text", true],
      ["age", "integer", false],
      ["plan", "choice", false],
      ["subscribe", "boolean", false],
    ]);
    expect(fields[2]?.options).toEqual([
      { value: "free", label: "Free" },
      { value: "pro", label: "Pro" },
    ]);
    expect(contentOf(fields, { username: "ada", age: "36", plan: "" })).toEqual({
      username: "ada",
      age: 36,
      subscribe: true,
    });
  });
});

describe("a call's own timeout, held while a person answers", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("times out with the SDK's RequestTimeout after the call timeout", () => {
    const clock = new CallClock(1000);
    vi.advanceTimersByTime(999);
    expect(clock.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.signal.reason).toBeInstanceOf(McpError);
    expect((clock.signal.reason as McpError).code).toBe(ErrorCode.RequestTimeout);
  });

  it("held, it does not time out; released, it runs out what was left", () => {
    const clock = new CallClock(1000);
    vi.advanceTimersByTime(600);
    const release = clock.hold();
    vi.advanceTimersByTime(60_000);
    expect(clock.signal.aborted).toBe(false);
    release();
    release(); // a second release changes nothing
    vi.advanceTimersByTime(399);
    expect(clock.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.signal.aborted).toBe(true);
  });

  it("stays held while any hold is left, and never fires once stopped", () => {
    const clock = new CallClock(100);
    const first = clock.hold();
    const second = clock.hold();
    first();
    vi.advanceTimersByTime(1000);
    expect(clock.signal.aborted).toBe(false);
    second();
    clock.stop();
    vi.advanceTimersByTime(1000);
    expect(clock.signal.aborted).toBe(false);
  });
});
