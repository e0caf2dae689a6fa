import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type JsonSchema, typeOf } from "@/components/api-reference/schema-fields";
import { toSchemaRows } from "@/components/servers/detail/schema-rows";

/*
 * zod writes ±Number.MAX_SAFE_INTEGER into every integer's JSON Schema. Those are a JavaScript
 * number's limits, not the API's or the tool's: the schema tables show the bounds someone set.
 */

const tool = z.toJSONSchema(
  z.object({
    count: z.number().int(),
    offset: z.number().int().nonnegative(),
    limit: z.number().int().min(1).max(200),
    page: z.number().int().positive(),
  }),
);

describe("schema bounds", () => {
  it("a tool's schema rows show the bounds someone set, not the safe-integer limits", () => {
    const constraints = Object.fromEntries(toSchemaRows(tool).map((row) => [row.name, row.constraints]));
    expect(constraints).toEqual({
      count: [],
      offset: ["≥ 0"],
      limit: ["≥ 1", "≤ 200"],
      page: ["> 0"],
    });
    expect(JSON.stringify(toSchemaRows(tool))).not.toContain("9007199254740991");
  });

  it("the API reference types an integer with its real range only", () => {
    const properties = (tool as { properties: Record<string, JsonSchema> }).properties;
    const types = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, typeOf(schema, {})]),
    );
    expect(types).toMatchObject({ count: "integer", offset: "integer (≥ 0)", limit: "integer (1–200)" });
    expect(Object.values(types).join(" ")).not.toContain("9007199254740991");
  });

  it("keeps a large bound that someone did set", () => {
    expect(typeOf({ type: "integer", minimum: 0, maximum: 2 ** 31 - 1 }, {})).toBe("integer (0–2147483647)");
  });
});
