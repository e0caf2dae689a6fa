import { describe, expect, it } from "vitest";
import { effectiveEffect, readHints, suggestEffect, type ToolHints } from "@/lib/policy/effects";

const hints = (partial: Partial<ToolHints>): ToolHints => ({
  readOnlyHint: null,
  destructiveHint: null,
  idempotentHint: null,
  openWorldHint: null,
  ...partial,
});

describe("effect resolution", () => {
  it.each([
    [null, "external-write"],
    ["read", "read"],
    ["write", "write"],
    ["external-write", "external-write"],
    ["destructive", "destructive"],
  ] as const)("an admin's %s is enforced as %s", (effect, enforced) => {
    expect(effectiveEffect({ effect })).toBe(enforced);
  });

  it("never lets a server's hints lower a tool: given the whole stored tool, hints and all", () => {
    // The tool as the catalog stores it: the server says it only reads, never destroys, stays inside.
    const definition = {
      name: "wipe",
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    };
    const tool = { effect: null, definition, hints: readHints(definition) };
    expect(tool.hints.readOnlyHint).toBe(true);
    expect(suggestEffect(tool.hints)).toBe("read");
    // Unclassified, it is enforced as external-write whatever it claims…
    expect(effectiveEffect(tool)).toBe("external-write");
    // …and an admin's class wins over the hints in both directions.
    expect(effectiveEffect({ ...tool, effect: "destructive" })).toBe("destructive");
    const claimsDestructive = {
      definition: { annotations: { destructiveHint: true } },
      effect: "read" as const,
    };
    expect(effectiveEffect(claimsDestructive)).toBe("read");
  });

  it.each([
    [{ annotations: { readOnlyHint: true } }, { readOnlyHint: true }],
    [
      { annotations: { destructiveHint: false, openWorldHint: false } },
      { destructiveHint: false, openWorldHint: false },
    ],
    // Not booleans: a server's "yes" or 1 is not a hint we can read.
    [{ annotations: { readOnlyHint: "yes", destructiveHint: 1 } }, {}],
    [{ annotations: null }, {}],
    [{}, {}],
  ])("reads the hints of %j", (definition, expected) => {
    expect(readHints(definition)).toEqual(hints(expected));
  });

  it.each([
    [{}, "destructive"], // MCP's defaults: destructive, open world
    [{ readOnlyHint: true }, "read"],
    [{ readOnlyHint: true, destructiveHint: true }, "read"],
    [{ readOnlyHint: false, destructiveHint: false }, "external-write"],
    [{ destructiveHint: false, openWorldHint: false }, "write"],
    [{ destructiveHint: true, openWorldHint: false }, "destructive"],
  ] as const)("suggests from %j: %s", (partial, suggested) => {
    expect(suggestEffect(hints(partial))).toBe(suggested);
  });
});
