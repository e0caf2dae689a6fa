import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  type CatalogContents,
  canonicalCatalog,
  canonicalJson,
  diffCatalogs,
  emptyDiff,
  hashCatalog,
  hashEntry,
  hashToolDefinition,
  isEmptyDiff,
  withUniqueKeys,
} from "@/lib/catalog/hashing";

describe("canonicalJson", () => {
  it.each([
    ["sorts keys at every level", { b: 1, a: { d: [3, 1], c: "x" } }, '{"a":{"c":"x","d":[3,1]},"b":1}'],
    ["keeps array order", [3, 1, 2], "[3,1,2]"],
    ["drops undefined members like JSON.stringify", { a: undefined, b: null }, '{"b":null}'],
    ["writes undefined array items as null", [undefined, 1], "[null,1]"],
    [
      "writes non-finite numbers as null",
      { n: Number.NaN, i: Number.POSITIVE_INFINITY },
      '{"i":null,"n":null}',
    ],
    ["escapes strings", { 'k"': 'line\n"q"' }, '{"k\\"":"line\\n\\"q\\""}'],
    [
      "keeps an own __proto__ key as data",
      JSON.parse('{"z":1,"__proto__":{"x":1}}'),
      '{"__proto__":{"x":1},"z":1}',
    ],
    ["writes scalars as JSON", "text", '"text"'],
  ])("%s", (_case, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it("gives the same text for the same data in any key order", () => {
    const a = JSON.parse('{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"number"}}}');
    const b = JSON.parse('{"properties":{"y":{"type":"number"},"x":{"type":"string"}},"type":"object"}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(JSON.parse(canonicalJson(a))).toEqual(a);
  });
});

const baseTool: Tool = {
  name: "create_issue",
  title: "Create issue",
  description: "Opens an issue.",
  inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
  outputSchema: { type: "object", properties: { id: { type: "number" } } },
  annotations: { readOnlyHint: false, destructiveHint: false },
};

/** The same data with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reverseKeys(child)]),
  );
}

describe("hashToolDefinition", () => {
  const baseHash = hashToolDefinition(baseTool);

  it("is a SHA-256 in hex", () => {
    expect(baseHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is given a reordered copy below, not the same text", () => {
    expect(JSON.stringify(reverseKeys(baseTool))).not.toBe(JSON.stringify(baseTool));
  });

  it.each<[string, Tool]>([
    ["the description", { ...baseTool, description: "Opens an issue and assigns it to you." }],
    ["the title", { ...baseTool, title: "New issue" }],
    [
      "the input schema",
      { ...baseTool, inputSchema: { type: "object", properties: { body: { type: "string" } } } },
    ],
    ["a required input", { ...baseTool, inputSchema: { ...baseTool.inputSchema, required: [] } }],
    ["the output schema", { ...baseTool, outputSchema: undefined }],
    ["an annotation", { ...baseTool, annotations: { readOnlyHint: false, destructiveHint: true } }],
  ])("changes when %s changes", (_field, tool) => {
    expect(hashToolDefinition(tool)).not.toBe(baseHash);
  });

  it.each<[string, Tool]>([
    ["_meta", { ...baseTool, _meta: { requestedAt: "2026-01-01T00:00:00Z" } }],
    ["icons", { ...baseTool, icons: [{ src: "https://example.com/i.png" }] }],
    ["execution", { ...baseTool, execution: { taskSupport: "optional" } }],
    ["the key order", reverseKeys(baseTool) as Tool],
  ])("stays the same when only %s differs", (_field, tool) => {
    expect(hashToolDefinition(tool)).toBe(baseHash);
  });
});

describe("hashEntry for resources", () => {
  const resource = {
    uri: "file:///a.md",
    name: "a.md",
    mimeType: "text/markdown",
    annotations: { priority: 0.5 },
  };

  it("ignores the content's current size and modification time", () => {
    const edited = {
      ...resource,
      size: 1234,
      annotations: { priority: 0.5, lastModified: "2026-01-01T00:00:00Z" },
    };
    expect(hashEntry("resources", edited)).toBe(hashEntry("resources", resource));
  });

  it("changes with what the resource is", () => {
    expect(hashEntry("resources", { ...resource, mimeType: "text/plain" })).not.toBe(
      hashEntry("resources", resource),
    );
    expect(hashEntry("resources", { ...resource, annotations: { priority: 1 } })).not.toBe(
      hashEntry("resources", resource),
    );
  });
});

const tool = (name: string, description = `${name} tool`): Tool => ({
  name,
  description,
  inputSchema: { type: "object" },
});

function catalog(parts: Partial<CatalogContents>): CatalogContents {
  return { tools: [], resources: [], resourceTemplates: [], prompts: [], ...parts };
}

describe("hashCatalog", () => {
  const full = catalog({
    tools: [tool("a"), tool("b")],
    resources: [{ uri: "x://1", name: "one" }],
    resourceTemplates: [{ uriTemplate: "x://{id}", name: "by id" }],
    prompts: [{ name: "p" }],
  });

  it("does not depend on list order", () => {
    expect(hashCatalog({ ...full, tools: [tool("b"), tool("a")] })).toBe(hashCatalog(full));
  });

  it.each<[string, CatalogContents]>([
    ["a tool's description", { ...full, tools: [tool("a", "changed"), tool("b")] }],
    ["a removed tool", { ...full, tools: [tool("a")] }],
    ["a resource", { ...full, resources: [] }],
    ["a template", { ...full, resourceTemplates: [{ uriTemplate: "x://{id}/v2", name: "by id" }] }],
    ["a prompt", { ...full, prompts: [{ name: "p", description: "now described" }] }],
  ])("changes with %s", (_case, changed) => {
    expect(hashCatalog(changed)).not.toBe(hashCatalog(full));
  });

  it("is stable through its own canonical form (what a snapshot stores)", () => {
    const stored = JSON.parse(JSON.stringify(canonicalCatalog(full))) as CatalogContents;
    expect(hashCatalog(stored)).toBe(hashCatalog(full));
    expect(stored.tools.map((t) => t.name)).toEqual(["a", "b"]);
  });
});

describe("diffCatalogs", () => {
  const before = catalog({
    tools: [tool("keep"), tool("edit"), tool("drop")],
    resources: [
      { uri: "x://keep", name: "keep" },
      { uri: "x://drop", name: "drop" },
    ],
    prompts: [{ name: "p", description: "v1" }],
  });

  it.each<[string, CatalogContents | undefined, CatalogContents, ReturnType<typeof emptyDiff>]>([
    [
      "a first look lists everything as added, sorted",
      undefined,
      before,
      {
        ...emptyDiff(),
        tools: { added: ["drop", "edit", "keep"], removed: [], changed: [] },
        resources: { added: ["x://drop", "x://keep"], removed: [], changed: [] },
        prompts: { added: ["p"], removed: [], changed: [] },
      },
    ],
    ["an identical catalog has no differences", before, structuredClone(before), emptyDiff()],
    [
      "reordering is not a difference",
      before,
      { ...before, tools: [...before.tools].reverse() },
      emptyDiff(),
    ],
    [
      "tools added, removed and changed",
      before,
      { ...before, tools: [tool("keep"), tool("edit", "new text"), tool("new")] },
      { ...emptyDiff(), tools: { added: ["new"], removed: ["drop"], changed: ["edit"] } },
    ],
    [
      "each kind is diffed by its own key",
      before,
      {
        ...before,
        resources: [{ uri: "x://keep", name: "renamed" }],
        resourceTemplates: [{ uriTemplate: "x://{id}", name: "t" }],
        prompts: [],
      },
      {
        ...emptyDiff(),
        resources: { added: [], removed: ["x://drop"], changed: ["x://keep"] },
        resourceTemplates: { added: ["x://{id}"], removed: [], changed: [] },
        prompts: { added: [], removed: ["p"], changed: [] },
      },
    ],
  ])("%s", (_case, prev, next, expected) => {
    const diff = diffCatalogs(prev, next);
    expect(diff).toEqual(expected);
    expect(isEmptyDiff(diff)).toBe(isEmptyDiff(expected));
  });

  it("compares a stored canonical snapshot with a freshly discovered catalog", () => {
    const withMeta = { ...before, tools: before.tools.map((t) => ({ ...t, _meta: { at: Date.now() } })) };
    expect(isEmptyDiff(diffCatalogs(canonicalCatalog(before), withMeta))).toBe(true);
  });
});

describe("withUniqueKeys", () => {
  it("keeps the first entry per key in each list", () => {
    const unique = withUniqueKeys(
      catalog({
        tools: [tool("a", "first"), tool("b"), tool("a", "second")],
        resources: [
          { uri: "x://1", name: "one" },
          { uri: "x://1", name: "again" },
        ],
        prompts: [{ name: "a" }],
      }),
    );
    expect(unique.tools.map((t) => [t.name, t.description])).toEqual([
      ["a", "first"],
      ["b", "b tool"],
    ]);
    expect(unique.resources.map((r) => r.name)).toEqual(["one"]);
    // Keys are per kind: a prompt may share a tool's name.
    expect(unique.prompts.map((p) => p.name)).toEqual(["a"]);
  });
});
