import { describe, expect, it } from "vitest";
import { formatAgo, formatTimeLeft } from "@/components/calls/call-format";
import { toTimelineSteps } from "@/components/calls/detail/timeline-steps";
import { toValueRows } from "@/components/calls/value-rows";
import { describeEvent } from "@/components/events/event-summary";
import { bucketByMinute } from "@/components/overview/calls-per-minute";
import type { CallDto } from "@/lib/calls/call-view";
import type { RecordedEvent } from "@/lib/events/event-types";

/** The pure logic behind the Approvals, Calls, Events and Overview pages. */

describe("toValueRows: arguments as an indented key/value table", () => {
  it("flattens nested objects and lists in order, marking redacted secrets", () => {
    const { rows, isCut } = toValueRows({ text: "hi", opts: { token: "[redacted]", ids: [1, null] } });
    expect(isCut).toBe(false);
    expect(rows.map((r) => [r.path, r.depth, r.kind, r.text])).toEqual([
      ["text", 0, "string", "hi"],
      ["opts", 0, "object", "object · 2 keys"],
      ["opts.token", 1, "redacted", "[redacted]"],
      ["opts.ids", 1, "array", "list · 2 items"],
      ["opts.ids.[0]", 2, "number", "1"],
      ["opts.ids.[1]", 2, "null", "null"],
    ]);
  });

  it("bounds the work a huge value can cause", () => {
    const { rows, isCut } = toValueRows({ list: Array.from({ length: 2_000 }, (_, i) => i) });
    expect(rows.length).toBe(500);
    expect(isCut).toBe(true);
  });
});

describe("time formatting", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  it.each([
    ["2026-01-01T12:00:00Z", "just now"],
    ["2026-01-01T11:59:30Z", "30 s ago"],
    ["2026-01-01T11:58:00Z", "2 min ago"],
    ["2026-01-01T09:00:00Z", "3 h ago"],
    ["2025-12-28T12:00:00Z", "4 d ago"],
  ])("formatAgo(%s) = %s", (iso, expected) => expect(formatAgo(iso, now)).toBe(expected));

  it.each([
    ["2026-01-01T12:09:41Z", "9:41"],
    ["2026-01-01T13:05:00Z", "1 h 05 min"],
    ["2026-01-01T12:00:00Z", null],
  ])("formatTimeLeft(%s) = %s", (iso, expected) => expect(formatTimeLeft(iso, now)).toBe(expected));
});

describe("bucketByMinute", () => {
  it("counts calls per minute of the window, failures (tool errors too) apart, ignoring those outside it", () => {
    const now = Date.parse("2026-01-01T12:00:30Z");
    const buckets = bucketByMinute(
      [
        { at: "2026-01-01T12:00:10Z", outcome: "succeeded" },
        { at: "2026-01-01T12:00:20Z", outcome: "failed" },
        { at: "2026-01-01T12:00:25Z", outcome: "tool_error" },
        { at: "2026-01-01T11:58:59Z", outcome: "denied" },
        { at: "2026-01-01T11:00:00Z", outcome: "succeeded" }, // before the window
      ],
      now,
      3,
    );
    expect(buckets.map((b) => [new Date(b.start).toISOString(), b.total, b.failed])).toEqual([
      ["2026-01-01T11:58:00.000Z", 1, 1],
      ["2026-01-01T11:59:00.000Z", 0, 0],
      ["2026-01-01T12:00:00.000Z", 3, 2],
    ]);
  });
});

describe("toTimelineSteps", () => {
  const call = {
    status: "succeeded",
    requester: { kind: "principal", id: "p1", name: "claude-code" },
    serverName: "local-tools",
    error: null,
    approval: null,
  } as unknown as CallDto;
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

  it("tells each step with who decided, why, and the time since the step before", () => {
    const steps = toTimelineSteps(
      call,
      [
        { id: 1, type: "call.requested", at: at(0), detail: {} },
        { id: 2, type: "call.approval_required", at: at(0), detail: { reason: "external-write" } },
        { id: 3, type: "call.approved", at: at(30), detail: { decidedBy: "Ada", reason: "fine" } },
        { id: 4, type: "call.started", at: at(30), detail: {} },
        { id: 5, type: "call.succeeded", at: at(31), detail: { durationMs: 1000, isError: false } },
      ],
      Date.parse(at(40)),
    );
    expect(steps.map((s) => [s.title, s.detail, s.sincePreviousMs])).toEqual([
      ["Requested by claude-code", null, null],
      ["Approval required", "external-write", 0],
      ["Approved by Ada", "Reason: fine", 30_000],
      ["Started", "on local-tools", 0],
      ["Succeeded", "ran 1.00 s", 1_000],
    ]);
  });

  it("ends a call still waiting with the step that has not happened yet", () => {
    const waiting = {
      ...call,
      status: "pending_approval",
      approval: { expiresAt: at(60) },
    } as unknown as CallDto;
    const steps = toTimelineSteps(
      waiting,
      [{ id: 1, type: "call.requested", at: at(0), detail: {} }],
      Date.parse(at(10)),
    );
    expect(steps.at(-1)).toMatchObject({
      title: "Waiting for a decision",
      detail: "expires in 0:50",
      isOngoing: true,
    });
  });

  it("says a policy denial came from no person", () => {
    const [step] = toTimelineSteps(
      { ...call, status: "denied" } as CallDto,
      [{ id: 1, type: "call.denied", at: at(0), detail: { decidedBy: null, reason: "not granted" } }],
      0,
    );
    expect(step).toMatchObject({ title: "Denied by policy", detail: "not granted", tone: "error" });
  });
});

describe("describeEvent", () => {
  const ref = {
    id: 7,
    tenantId: "t",
    createdAt: "2026-01-01T12:00:00Z",
    callId: "c1",
    serverId: "s1",
    serverName: "local-tools",
    tool: "local-tools__echo",
    effect: "external-write",
    requester: { kind: "principal", id: "p1", name: "claude-code" },
  } as const;

  it.each([
    [{ ...ref, type: "call.requested" }, "requested", "claude-code called local-tools__echo"],
    [
      { ...ref, type: "call.approved", decidedBy: "Ada", reason: null },
      "approved",
      "Ada approved local-tools__echo",
    ],
    [
      { ...ref, type: "call.denied", decidedBy: null, reason: "not granted" },
      "denied",
      "Policy denied local-tools__echo: not granted",
    ],
    [
      { ...ref, type: "call.failed", durationMs: null, errorCode: "timeout" },
      "failed",
      "local-tools__echo failed: timeout",
    ],
  ])("%#: a readable line, linked to its call", (event, label, summary) => {
    const look = describeEvent(event as RecordedEvent);
    expect(look).toMatchObject({ label, summary, callId: "c1" });
  });
});
