import { describe, expect, it } from "vitest";
import { outcomeText } from "@/cli/commands/call-result";
import { callOutcomes } from "@/components/calls/call-format";
import { describeOutcome } from "@/components/calls/call-wording";
import { outcomeOf } from "@/lib/calls/call-outcome";
import type { CallSummary } from "@/lib/calls/call-view";

/** How a call's ending reads: the one wording module behind the call page, the Playground, Calls and Overview. */

type Call = Pick<CallSummary, "outcome" | "error" | "approval">;
const approval = (over: Partial<NonNullable<CallSummary["approval"]>>) =>
  ({
    id: "a1",
    status: "denied",
    requiredBecause: "external-write needs approval",
    reason: null,
    decidedBy: null,
    decidedAt: "2026-01-01T12:00:00Z",
    expiresAt: "2026-01-01T12:10:00Z",
    createdAt: "2026-01-01T11:59:00Z",
    ...over,
  }) as NonNullable<CallSummary["approval"]>;
const call = (over: Partial<Call>): Call => ({ outcome: "succeeded", error: null, approval: null, ...over });

describe("outcomeOf: a tool that answered isError is a tool error, never a success", () => {
  it.each([
    ["succeeded", true, "tool_error"],
    ["succeeded", false, "succeeded"],
    ["succeeded", null, "succeeded"],
    ["failed", null, "failed"],
    ["pending_approval", null, "pending_approval"],
  ] as const)("%s with isError %s is %s", (status, isError, outcome) =>
    expect(outcomeOf(status, isError)).toBe(outcome),
  );

  it("the tool-error badge is red and named so, the success badge says no error", () => {
    expect(callOutcomes.tool_error).toMatchObject({ label: "Tool error", tone: "red" });
    expect(callOutcomes.succeeded.title).toMatch(/no error/);
  });
});

describe("describeOutcome", () => {
  it("names the person who denied and their reason, keeping the raw code apart", () => {
    const denied = call({
      outcome: "denied",
      error: { code: "policy_denied", message: "Denied: not on a Friday" },
      approval: approval({
        reason: "not on a Friday",
        decidedBy: { kind: "operator", id: "u1", name: "Dana" },
      }),
    });
    expect(describeOutcome(denied)).toEqual({
      headline: "Denied by Dana: not on a Friday",
      detail: null,
      code: "policy_denied",
    });
  });

  it("says when a person denied without a reason", () => {
    const denied = call({
      outcome: "denied",
      error: { code: "policy_denied", message: "Denied by an approver." },
      approval: approval({ decidedBy: { kind: "api_key", id: "k1", name: 'API key "ops"' } }),
    });
    expect(describeOutcome(denied)).toMatchObject({
      headline: 'Denied by API key "ops"',
      detail: "No reason given.",
    });
  });

  it("a refusal for want of a grant reads as such, with the policy's own sentence as detail", () => {
    const message = 'The principal "bot" has no grant for local-tools__echo.';
    expect(describeOutcome(call({ outcome: "denied", error: { code: "policy_denied", message } }))).toEqual({
      headline: "No grant covers this tool",
      detail: message,
      code: "policy_denied",
    });
  });

  it("another policy refusal says it was policy, and why", () => {
    const message = "local-tools__echo is disabled by an admin.";
    expect(describeOutcome(call({ outcome: "denied", error: { code: "policy_denied", message } }))).toEqual({
      headline: "Refused by policy; it never ran",
      detail: message,
      code: "policy_denied",
    });
  });

  it.each([
    ["expired", "approval_expired", "No one decided in time"],
    ["cancelled", "cancelled", "Withdrawn by the caller before it ran"],
  ] as const)("%s reads in words, not as %s", (outcome, code, headline) => {
    const wording = describeOutcome(call({ outcome, error: { code, message: "stored message" } }));
    expect(wording).toMatchObject({ headline, code });
    expect(wording.headline).not.toContain(code);
  });

  it.each([
    ["timeout", "The tool did not answer in time"],
    ["upstream_unavailable", "The server could not be reached"],
    ["upstream_error", "The server returned an error"],
    ["not_started", "Approved, but no process started it in time"],
    ["internal", "Switchboard failed while running it"],
    ["something_new", "It did not produce a result"],
  ])("a failure coded %s reads %j, with the server's message as detail", (code, headline) => {
    expect(describeOutcome(call({ outcome: "failed", error: { code, message: "boom" } }))).toEqual({
      headline,
      detail: "boom",
      code,
    });
  });

  it("a tool error says the tool ran but reported an error", () => {
    expect(describeOutcome(call({ outcome: "tool_error" }))).toMatchObject({
      headline: "The tool ran but reported an error",
      code: "isError",
    });
  });

  it("every outcome has words of its own", () => {
    for (const outcome of Object.keys(callOutcomes) as CallSummary["outcome"][]) {
      const { headline } = describeOutcome(call({ outcome, approval: approval({ status: "pending" }) }));
      expect(headline.length, outcome).toBeGreaterThan(0);
      expect(headline, outcome).not.toBe(outcome);
    }
  });
});

describe("the CLI's outcome column", () => {
  it("prints tool error, also for a server that predates the outcome field", () => {
    expect(outcomeText({ status: "succeeded", isError: true, outcome: "tool_error" })).toBe("tool error");
    expect(outcomeText({ status: "succeeded", isError: true })).toBe("tool error");
    expect(outcomeText({ status: "succeeded", isError: false, outcome: "succeeded" })).toBe("succeeded");
    expect(outcomeText({ status: "pending_approval", isError: null, outcome: "pending_approval" })).toBe(
      "pending_approval",
    );
  });
});
