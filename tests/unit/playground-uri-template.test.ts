import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { describe, expect, it } from "vitest";
import { base64Bytes } from "@/components/playground/inspect/resource-contents";
import { expandTemplate, templateVariables } from "@/components/playground/inspect/uri-template";

/*
 * The Playground fills in resource templates in the browser (no MCP SDK there); the server then
 * matches the URI against the template with the SDK (lib/inspect/catalog-target.ts). The SDK is
 * the oracle here: what we make is what it makes, and it reads back as the values typed.
 */

describe("resource templates in the playground", () => {
  it.each([
    ["demo://resource/dynamic/text/{resourceId}", { resourceId: "42" }],
    ["inspect://colors/{color}", { color: "dark blue" }],
    ["file:///{+path}", { path: "notes/today.md" }],
    ["search://items{?q,lang}", { q: "a&b", lang: "en" }],
    ["repo://{owner}/{name}/issues/{id}", { owner: "acme", name: "widgets", id: "7" }],
  ])("%s: the SDK reads back what was typed", (template, values) => {
    expect(templateVariables(template)).toEqual(Object.keys(values));
    const sdk = new UriTemplate(template);
    const uri = expandTemplate(template, values);
    expect(uri).toBe(sdk.expand(values));
    // The SDK's match hands back the values as they stand in the URI: encoded.
    const matched = sdk.match(uri) ?? {};
    expect(
      Object.fromEntries(Object.entries(matched).map(([k, v]) => [k, decodeURIComponent(String(v))])),
    ).toEqual(values);
  });

  it("encodes what would change the URI's shape", () => {
    expect(expandTemplate("inspect://colors/{color}", { color: "../../etc/passwd?x#y" })).toBe(
      "inspect://colors/..%2F..%2Fetc%2Fpasswd%3Fx%23y",
    );
  });

  it("leaves out a variable not filled in, and lists each variable once", () => {
    expect(expandTemplate("search://items{?q,lang}", { q: "x" })).toBe("search://items?q=x");
    expect(templateVariables("a://{x}/{x}{?y}")).toEqual(["x", "y"]);
  });

  it("sizes base64 content without decoding it", () => {
    for (const bytes of [0, 1, 2, 3, 10, 88]) {
      expect(base64Bytes(Buffer.alloc(bytes, 7).toString("base64"))).toBe(bytes);
    }
  });
});
