import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/next-path";

describe("where sign-in sends someone next", () => {
  it.each([
    ["/servers", "/servers"],
    ["/servers/files?tab=health#latest", "/servers/files?tab=health#latest"],
    ["/calls/abc", "/calls/abc"],
  ])("keeps the same-site path %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["protocol-relative", "//evil.example/steal"],
    ["backslash, read by browsers as a slash", "/\\evil.example"],
    ["tab inside, stripped by URL parsing", "/\t/evil.example"],
    ["absolute URL", "https://evil.example/"],
    ["javascript: URL", "javascript:alert(1)"],
    ["relative path", "servers"],
    ["given twice (a list)", ["/servers", "//evil.example"]],
    ["back to sign-in", "/sign-in?next=/servers"],
  ])("goes home for %s", (_, next) => {
    expect(safeNextPath(next)).toBe("/");
  });
});
