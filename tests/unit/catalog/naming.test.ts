import { describe, expect, it } from "vitest";
import { detectNameCollisions, MAX_GATEWAY_NAME_LENGTH, toGatewayName } from "@/lib/catalog/naming";

const VALID = /^[A-Za-z0-9_.-]{1,64}$/;
const HASHED = /_[0-9a-f]{8}$/;

describe("toGatewayName", () => {
  it.each([
    ["github", "create_issue", "github__create_issue"],
    ["fs", "read.file-v2", "fs__read.file-v2"],
    ["everything", "get-sum", "everything__get-sum"],
    ["s", "t".repeat(61), `s__${"t".repeat(61)}`],
  ])("keeps %s + %s as is when it fits", (server, tool, expected) => {
    expect(toGatewayName(server, tool)).toBe(expected);
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

  it("cuts at 64 characters and keeps the start of the name readable", () => {
    const tool = "t".repeat(100);
    const name = toGatewayName("srv", tool);
    expect(name).toHaveLength(64);
    expect(name.slice(0, 55)).toBe(`srv__${"t".repeat(50)}`);
  });

  it("replaces one character per code point, so an emoji becomes one underscore", () => {
    expect(toGatewayName("srv", "go🚀")).toMatch(/^srv__go__[0-9a-f]{8}$/);
  });

  it.each([
    ["names that differ only after the cut", "x".repeat(70), `${"x".repeat(69)}y`],
    ["a replaced character and an underscore", "a b", "a_b"],
    ["two different replaced characters", "a b", "a/b"],
  ])("gives different names to %s", (_case, first, second) => {
    expect(toGatewayName("srv", first)).not.toBe(toGatewayName("srv", second));
  });

  it("always yields a valid name, whatever the server sends", () => {
    const alphabet = ["a", "Z", "9", "_", "-", ".", " ", "/", "é", "🚀", "\t", ":", "__"];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 300; i++) {
      const length = 1 + (next() % 90);
      const tool = Array.from({ length }, () => alphabet[next() % alphabet.length]).join("");
      expect(toGatewayName("some-server", tool)).toMatch(VALID);
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
