import { describe, expect, it } from "vitest";
import { literal } from "@/lib/db/plain-statement";

describe("literal", () => {
  it("doubles quotes and backslashes inside an escape-string literal", () => {
    expect(literal("plain")).toBe("E'plain'");
    expect(literal("O'Brien")).toBe("E'O''Brien'");
    expect(literal("a\\'; drop table calls; --")).toBe("E'a\\\\''; drop table calls; --'");
  });

  it("writes numbers and null as themselves, and refuses what SQL has no literal for", () => {
    expect(literal(null)).toBe("null");
    expect(literal(42)).toBe("42");
    expect(literal(-1.5)).toBe("-1.5");
    expect(() => literal(Number.NaN)).toThrow(/finite/);
  });

  it("turns NUL, which would end the statement early, into U+FFFD", () => {
    expect(literal("a\0b")).toBe("E'a\uFFFDb'");
  });
});
