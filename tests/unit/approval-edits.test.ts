import { describe, expect, it } from "vitest";
import { describeEdit } from "@/lib/approvals/edit-note";
import { mergeEditedArguments } from "@/lib/approvals/merge-edit";
import { EDITED_ARGUMENTS_META, editedFieldsOf, withEditNote } from "@/lib/calls/argument-diff";
import type { CallDto } from "@/lib/calls/call-view";
import { callToToolResult } from "@/lib/gateway/server/results";

/*
 * "Approve with edits", the pure parts: the approver edits what they were shown (secrets read
 * [redacted]); what runs keeps the caller's real value wherever the approver left it, and the
 * caller's result says what changed.
 */

const shown = { token: "[redacted]", note: "hello", nested: { key: "a [redacted] b", n: 1 } };
const real = { token: "sk-real-123", note: "hello", nested: { key: "a sk-real-123 b", n: 1 } };

describe("merging an approver's edit over the real arguments", () => {
  it("keeps the real secret in a field the approver left as shown, and takes the edited one", () => {
    const { merged, placeholders } = mergeEditedArguments({ ...shown, note: "bye" }, shown, real);
    expect(placeholders).toEqual([]);
    expect(merged).toEqual({ ...real, note: "bye" });
  });

  it("keeps a secret inside a nested object whose sibling changed", () => {
    const edited = { ...shown, nested: { key: "a [redacted] b", n: 2 } };
    const { merged, placeholders } = mergeEditedArguments(edited, shown, real);
    expect(placeholders).toEqual([]);
    expect(merged.nested).toEqual({ key: "a sk-real-123 b", n: 2 });
  });

  it("names a changed value that still holds [redacted], which would reach the tool as text", () => {
    const edited = { ...shown, nested: { key: "a [redacted] c", n: 1 } };
    expect(mergeEditedArguments(edited, shown, real).placeholders).toEqual(["nested.key"]);
    // Typed into a new field, the placeholder is refused just as well.
    expect(mergeEditedArguments({ ...shown, extra: "[redacted]" }, shown, real).placeholders).toEqual([
      "extra",
    ]);
  });

  it("drops a field the approver removed and adds one they added", () => {
    const { merged } = mergeEditedArguments({ token: "[redacted]", added: true }, shown, real);
    expect(merged).toEqual({ token: "sk-real-123", added: true });
  });

  it("treats a field named __proto__ as a plain field", () => {
    const edited = JSON.parse('{"__proto__": {"polluted": true}, "note": "x"}') as Record<string, unknown>;
    const { merged } = mergeEditedArguments(edited, shown, real);
    expect(Object.keys(merged)).toEqual(["__proto__", "note"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("the note an edited call's result carries", () => {
  it("lists the changed top-level fields, sorted", () => {
    expect(editedFieldsOf({ a: 1, b: { c: 2 }, d: 3 }, { a: 1, b: { c: 3 }, e: 4 })).toEqual(["b", "d", "e"]);
    expect(editedFieldsOf({ a: [1, 2] }, { a: [1, 2] })).toEqual([]);
  });

  it("appends a text item a model reads and structured _meta, keeping the tool's own content", () => {
    const result = { content: [{ type: "text", text: "recorded B" }], structuredContent: { ok: true } };
    const edit = { requestedArguments: { token: "A" }, editedFields: ["token"] };
    const noted = withEditNote(result, edit, { token: "B" });
    expect(noted.content).toEqual([
      { type: "text", text: "recorded B" },
      { type: "text", text: expect.stringContaining('- token: requested "A", ran with "B"') },
    ]);
    expect(noted.structuredContent).toEqual({ ok: true });
    expect(noted._meta).toEqual({
      [EDITED_ARGUMENTS_META]: { fields: ["token"], requested: { token: "A" }, approved: { token: "B" } },
    });
  });

  it("says field by field, for the audit log, what was asked and what ran", () => {
    expect(describeEdit("fixture__record", { token: "A", n: 1 }, { token: "B" }, ["n", "token"])).toBe(
      'fixture__record approved with edited arguments — n: 1 → (not set); token: "A" → "B"',
    );
  });
});

describe("an edited call that failed, as the agent reads it through /mcp", () => {
  it("says the approver changed the arguments, and what ran", () => {
    const call = {
      id: "c1",
      tool: "fixture__record",
      kind: "tool_call",
      status: "failed",
      error: { code: "upstream_error", message: "boom" },
      arguments: { token: "B" },
      argumentEdit: { requestedArguments: { token: "A" }, editedFields: ["token"] },
      result: null,
    } as unknown as CallDto;
    const result = callToToolResult(call, { waitedSeconds: 0 });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({
      type: "text",
      text: 'Call c1 to fixture__record failed (upstream_error): boom (An approver changed the arguments before approving it: token; it ran with {"token":"B"}.)',
    });
    // Not edited: the message is as before.
    const plain = callToToolResult({ ...call, argumentEdit: null }, { waitedSeconds: 0 });
    expect(plain.content[0]).toEqual({
      type: "text",
      text: "Call c1 to fixture__record failed (upstream_error): boom",
    });
  });
});
