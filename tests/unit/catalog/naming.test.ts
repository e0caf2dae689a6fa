import { describe, expect, it } from "vitest";
import {
  DEFAULT_GATEWAY_NAME_BUDGET,
  detectNameCollisions,
  isPlainGatewayName,
  MAX_GATEWAY_NAME_LENGTH,
  MIN_GATEWAY_NAME_BUDGET,
  toGatewayName,
} from "@/lib/catalog/naming";

/** What Claude Code accepts in a tool name without rewriting it. */
const VALID = /^[A-Za-z0-9_-]{1,46}$/;
const HASHED = /_[0-9a-f]{8}$/;
/** Claude Code's prefix for a server added as `switchboard`. */
const CLAUDE_PREFIX = "mcp__switchboard__";

describe("toGatewayName", () => {
  it.each([
    ["github", "create_issue", "github__create_issue"],
    ["everything", "get-sum", "everything__get-sum"],
    ["s", "t".repeat(43), `s__${"t".repeat(43)}`],
  ])("keeps %s + %s as is when it fits", (server, tool, expected) => {
    expect(toGatewayName(server, tool)).toBe(expected);
  });

  it.each([
    ["fs", "read.file-v2", "fs__read_file-v2"],
    ["weather", "get.weather", "weather__get_weather"],
    ["s", "a.b.c", "s__a_b_c"],
  ])(
    "turns dots into underscores without a hash, as Claude Code itself does: %s + %s",
    (server, tool, expected) => {
      expect(toGatewayName(server, tool)).toBe(expected);
    },
  );

  it("hashes a dotted name that is also too long, from the unaltered name", () => {
    const tool = `x.${"y".repeat(50)}`;
    const name = toGatewayName("srv", tool);
    expect(name).toHaveLength(DEFAULT_GATEWAY_NAME_BUDGET);
    expect(name).toMatch(/^srv__x_y+_[0-9a-f]{8}$/);
    expect(name).not.toBe(toGatewayName("srv", `x_${"y".repeat(50)}`));
  });

  it("defaults to a budget of 46, so Claude Code's prefix + the name stays within 64", () => {
    expect(DEFAULT_GATEWAY_NAME_BUDGET).toBe(46);
    expect(CLAUDE_PREFIX.length + DEFAULT_GATEWAY_NAME_BUDGET).toBe(MAX_GATEWAY_NAME_LENGTH);
    const fits = `s__${"t".repeat(43)}`;
    expect(toGatewayName("s", "t".repeat(43))).toBe(fits);
    expect(toGatewayName("s", "t".repeat(44))).toMatch(HASHED);
    expect(toGatewayName("s", "t".repeat(44))).toHaveLength(46);
  });

  it.each([32, 40, 46, 50, 64])("respects a budget of %i, keeping what fits as is", (budget) => {
    const exact = "t".repeat(budget - "s__".length);
    expect(toGatewayName("s", exact, budget)).toBe(`s__${exact}`);
    const over = toGatewayName("s", `${exact}u`, budget);
    expect(over).toHaveLength(budget);
    expect(over).toMatch(HASHED);
    expect(over.startsWith("s__ttt")).toBe(true);
  });

  it("clamps a budget outside 32–64 instead of producing an invalid name", () => {
    expect(toGatewayName("s", "t".repeat(100), 10)).toHaveLength(MIN_GATEWAY_NAME_BUDGET);
    expect(toGatewayName("s", "t".repeat(100), 500)).toHaveLength(MAX_GATEWAY_NAME_LENGTH);
  });

  it("is plain only when the name is exactly <server>__<tool>", () => {
    expect(isPlainGatewayName("s", "a_b", toGatewayName("s", "a_b"))).toBe(true);
    expect(isPlainGatewayName("s", "a.b", toGatewayName("s", "a.b"))).toBe(false);
    expect(isPlainGatewayName("s", "t".repeat(60), toGatewayName("s", "t".repeat(60)))).toBe(false);
  });

  it.each([
    ["a name one character too long", "s", "t".repeat(62)],
    [
      "a very long name",
      "github-enterprise-tools",
      "search_issues_and_pull_requests_across_all_repositories_v2",
    ],
    ["a space", "srv", "a b"],
    ["a slash and a colon", "srv", "repo/issue:create"],
    ["accented letters", "srv", "héllo"],
    ["an emoji", "srv", "rocket🚀"],
    ["only replaced characters", "srv", "ツール"],
  ])("shortens or cleans %s into a valid name with a hash suffix", (_case, server, tool) => {
    const name = toGatewayName(server, tool);
    expect(name).toMatch(VALID);
    expect(name).toMatch(HASHED);
    expect(name.length).toBeLessThanOrEqual(MAX_GATEWAY_NAME_LENGTH);
    expect(name.startsWith(`${server}__`)).toBe(true);
    expect(toGatewayName(server, tool)).toBe(name);
  });

  it("cuts at the budget and keeps the start of the name readable", () => {
    const tool = "t".repeat(100);
    const name = toGatewayName("srv", tool);
    expect(name).toHaveLength(46);
    expect(name.slice(0, 37)).toBe(`srv__${"t".repeat(32)}`);
    expect(toGatewayName("srv", tool, 64)).toHaveLength(64);
  });

  it("replaces one character per code point, so an emoji becomes one underscore", () => {
    expect(toGatewayName("srv", "go🚀")).toMatch(/^srv__go__[0-9a-f]{8}$/);
  });

  it.each([
    ["names that differ only after the cut", "x".repeat(70), `${"x".repeat(69)}y`],
    ["a replaced character and an underscore", "a b", "a_b"],
    ["a replaced character and a dot", "a b", "a.b"],
    ["two different replaced characters", "a b", "a/b"],
  ])("gives different names to %s", (_case, first, second) => {
    expect(toGatewayName("srv", first)).not.toBe(toGatewayName("srv", second));
  });

  it("always yields a name Claude Code keeps as is and that fits its prefix, whatever the server sends", () => {
    const alphabet = ["a", "Z", "9", "_", "-", ".", " ", "/", "é", "🚀", "\t", ":", "__"];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 300; i++) {
      const length = 1 + (next() % 90);
      const tool = Array.from({ length }, () => alphabet[next() % alphabet.length]).join("");
      const name = toGatewayName("some-server", tool);
      expect(name).toMatch(VALID);
      expect((CLAUDE_PREFIX + name).length).toBeLessThanOrEqual(MAX_GATEWAY_NAME_LENGTH);
      expect(toGatewayName("some-server", tool)).toBe(name);
    }
  });
});

describe("detectNameCollisions", () => {
  it("finds none among distinct names", () => {
    expect(
      detectNameCollisions([
        { serverName: "a", toolName: "x" },
        { serverName: "b", toolName: "x" },
        { serverName: "a", toolName: "y" },
      ]),
    ).toEqual([]);
  });

  it("reports both tools when a separator inside a name makes two tools look alike", () => {
    expect(
      detectNameCollisions([
        { serverName: "a", toolName: "b__c" },
        { serverName: "a__b", toolName: "c" },
      ]),
    ).toEqual([
      {
        gatewayName: "a__b__c",
        tools: [
          { serverName: "a", toolName: "b__c" },
          { serverName: "a__b", toolName: "c" },
        ],
      },
    ]);
  });

  it("reports every member of a three-way collision, from stored gateway names", () => {
    const collisions = detectNameCollisions([
      { serverName: "s1", toolName: "t", gatewayName: "shared" },
      { serverName: "s2", toolName: "t", gatewayName: "shared" },
      { serverName: "s3", toolName: "u", gatewayName: "shared" },
      { serverName: "s4", toolName: "v", gatewayName: "alone" },
    ]);
    expect(collisions).toHaveLength(1);
    expect(collisions[0]?.tools.map((t) => t.serverName)).toEqual(["s1", "s2", "s3"]);
  });

  it("does not count the same tool listed twice as a collision", () => {
    expect(
      detectNameCollisions([
        { serverName: "a", toolName: "x" },
        { serverName: "a", toolName: "x" },
      ]),
    ).toEqual([]);
  });
});
