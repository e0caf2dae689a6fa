import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { normalizeSecrets } from "@/lib/calls/scrub";
import { hashCatalog } from "@/lib/catalog/hashing";
import { scrubCatalog } from "@/lib/catalog/scrub-catalog";

const SECRET = "tok-4f1a9c0e77d2";
const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  inputSchema: { type: "object" },
  ...extra,
});
const catalogWith = (value: string) => ({
  tools: [
    tool("search", {
      title: `Search ${value}`,
      description: `Uses key ${value}.`,
      inputSchema: {
        type: "object",
        properties: { q: { type: "string", default: value, enum: ["a", value] } },
        [`x-${value}`]: true,
      },
      outputSchema: { type: "object", properties: { auth: { type: "string", const: value } } },
      annotations: { title: `Search ${value}` },
    }),
  ],
  resources: [{ uri: "notes://inbox", name: `inbox ${value}`, description: `read with ${value}` }],
  resourceTemplates: [{ uriTemplate: "notes://{id}", name: "note", description: `id ${value}` }],
  prompts: [{ name: "summarize", description: value, arguments: [{ name: "a", description: value }] }],
});

describe("scrubCatalog: secret values out of every text of a catalog before it is stored", () => {
  it("replaces the value in every string, keys and nested schema texts included", () => {
    const { catalog, problems } = scrubCatalog(catalogWith(SECRET), [SECRET]);
    expect(JSON.stringify(catalog)).not.toContain(SECRET);
    expect(catalog.tools[0]?.description).toBe("Uses key [redacted].");
    expect(catalog.tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: { q: { type: "string", default: "[redacted]", enum: ["a", "[redacted]"] } },
      "x-[redacted]": true,
    });
    expect(catalog.prompts[0]?.arguments?.[0]?.description).toBe("[redacted]");
    expect(problems).toEqual([]);
  });

  it("finds a value that JSON would escape (quotes, backslashes)", () => {
    const tricky = 'p"a\\ss-word';
    const { catalog } = scrubCatalog(catalogWith(tricky), [tricky]);
    expect(JSON.stringify(catalog)).not.toContain(JSON.stringify(tricky).slice(1, -1));
    expect(catalog.resources[0]?.description).toBe("read with [redacted]");
  });

  it("leaves out an entry whose identity holds a secret, and says so without naming it", () => {
    const { catalog, problems } = scrubCatalog(
      {
        tools: [tool("ok"), tool(`leak_${SECRET}`)],
        resources: [{ uri: `notes://x?key=${SECRET}`, name: "x" }],
        resourceTemplates: [],
        prompts: [{ name: SECRET }],
      },
      [SECRET],
    );
    expect(catalog.tools.map((t) => t.name)).toEqual(["ok"]);
    expect(catalog.resources).toEqual([]);
    expect(catalog.prompts).toEqual([]);
    expect(problems).toEqual([
      "tool #2 was skipped: its name contains the value of a secret",
      "resource #1 was skipped: its uri contains the value of a secret",
      "prompt #1 was skipped: its name contains the value of a secret",
    ]);
    expect(problems.join("\n")).not.toContain(SECRET);
  });

  it("hashes alike when the secret changes: a rotated token is not catalog drift", () => {
    const before = scrubCatalog(catalogWith("old-token-value"), ["old-token-value"]).catalog;
    const after = scrubCatalog(catalogWith("new-token-value"), ["new-token-value"]).catalog;
    expect(hashCatalog(after)).toBe(hashCatalog(before));
  });

  it("changes nothing without secrets, or with values too short to scrub", () => {
    const catalog = catalogWith("abc");
    expect(scrubCatalog(catalog, []).catalog).toBe(catalog);
    expect(scrubCatalog(catalog, normalizeSecrets(["abc"])).catalog).toEqual(catalog);
  });
});
