import { describe, expect, it } from "vitest";
import { compileSafePattern, conditionsHold, MAX_TESTED_LENGTH } from "@/lib/approvals/allow-rule-conditions";

describe("allow rule patterns", () => {
  it("compiles patterns of the safe subset and anchors them to the whole value", () => {
    const compiled = compileSafePattern("/tmp/[a-z0-9_-]+\\.txt");
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.regex.test("/tmp/report_1.txt")).toBe(true);
    // Anchored: a value that merely contains a match is not one.
    expect(compiled.regex.test("/etc/passwd#/tmp/x.txt")).toBe(false);
    expect(compiled.regex.test("/tmp/x.txt/../../etc")).toBe(false);
  });

  it.each([
    ["(a+)+b", "A group may not be repeated"],
    ["(?:ab)*", "A group may not be repeated"],
    ["(a|aa){2,}", "A group may not be repeated"],
    ["a*a*a*b", "at most 2 repetitions"],
    ["a?a?a?", "at most 2 repetitions"],
    ["(a)\\1", "Backreferences"],
    ["(?<name>a)\\k<name>", "Lookarounds and named groups"],
    ["(?=a)a", "Lookarounds and named groups"],
    ["[unclosed", "does not compile"],
    ["x".repeat(201), "under 200 characters"],
    ["", "empty"],
  ])("refuses %s with the reason", (pattern, reason) => {
    const compiled = compileSafePattern(pattern);
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.reason).toContain(reason);
  });

  it("counts what is inside a character class or escaped as plain characters", () => {
    expect(compileSafePattern("[*+?(){}]\\*\\+x+").ok).toBe(true);
    expect(compileSafePattern("a{2,3}b*?").ok).toBe(true);
  });
});

describe("allow rule conditions", () => {
  const args = { path: "/tmp/a.txt", count: 3, flag: true, nested: { a: 1 } };

  it("holds when every condition holds", () => {
    expect(conditionsHold([], args)).toBe(true);
    expect(
      conditionsHold(
        [
          { field: "path", op: "matches", value: "/tmp/.*" },
          { field: "count", op: "equals", value: "3" },
          { field: "flag", op: "equals", value: "true" },
          { field: "nested", op: "equals", value: '{"a":1}' },
        ],
        args,
      ),
    ).toBe(true);
    expect(
      conditionsHold(
        [
          { field: "path", op: "matches", value: "/tmp/.*" },
          { field: "count", op: "equals", value: "4" },
        ],
        args,
      ),
    ).toBe(false);
  });

  it("never holds for a missing field, an inherited one, or a value too long to test", () => {
    expect(conditionsHold([{ field: "other", op: "equals", value: "undefined" }], args)).toBe(false);
    expect(conditionsHold([{ field: "toString", op: "matches", value: ".*" }], args)).toBe(false);
    const long = { path: `/tmp/${"a".repeat(MAX_TESTED_LENGTH)}` };
    expect(conditionsHold([{ field: "path", op: "matches", value: "/tmp/.*" }], long)).toBe(false);
    expect(conditionsHold([{ field: "path", op: "equals", value: long.path }], long)).toBe(true);
  });

  it("compares the value as stored: a scrubbed secret does not equal the secret", () => {
    const stored = { token: "[redacted]" };
    expect(conditionsHold([{ field: "token", op: "equals", value: "hunter2" }], stored)).toBe(false);
  });
});
