import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseOrThrow, whenMissing } from "@/lib/validation";

function fieldErrors(schema: z.ZodType, input: unknown): Record<string, string[]> {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    if (error instanceof AppError) return { ...error.fieldErrors };
    throw error;
  }
  throw new Error("expected a rejection");
}

const schema = z.strictObject({
  name: z.string(whenMissing("name is required.")).max(5),
  count: z.int().min(1),
  tags: z.array(z.string()).max(2),
  env: z.record(z.string().regex(/^[A-Z]+$/, { error: "Upper-case letters only." }), z.string()),
  enabled: z.boolean().optional(),
});

describe("validation messages (the error map parseOrThrow gives zod)", () => {
  it.each([
    ["a missing field", {}, "count", "This field is required."],
    ["a schema's own message for a missing field", {}, "name", "name is required."],
    ["a wrong type", { count: "3" }, "count", "Expected a number, got a string."],
    ["a fraction", { count: 1.5 }, "count", "Expected a whole number, got a number."],
    ["a list where a string goes", { name: ["a"] }, "name", "Expected a string, got a list."],
    ["null", { enabled: null }, "enabled", "Expected true or false, got a null."],
    ["a long string", { name: "abcdefg" }, "name", "Must be at most 5 characters."],
    ["a long list", { tags: ["a", "b", "c"] }, "tags", "Must be at most 2 items."],
    ["a small number", { count: 0 }, "count", "Must be at least 1."],
    ["a refused record key", { env: { lower: "x" } }, "env.lower", "Upper-case letters only."],
  ])("%s", (_, input, field, message) => {
    expect(fieldErrors(schema, input)[field]).toEqual([message]);
  });

  // The old rewrite matched zod's English ("Invalid …", "Too …") and so also rewrote custom
  // messages that happened to start that way.
  it.each([
    [z.array(z.string()).max(1, { error: "Too many tags: keep one." }), "Too many tags: keep one."],
    [z.string({ error: "Invalid colour: use a name like red." }), "Invalid colour: use a name like red."],
  ])("never rewrites a schema's own message: %#", (custom, message) => {
    expect(fieldErrors(z.object({ value: custom }), { value: ["a", "b"] }).value).toEqual([message]);
  });

  it("leaves zod's wording to schemas parsed without the map (the MCP SDK's, for one)", () => {
    expect(z.string().safeParse(1).error?.issues[0]?.message).toBe(
      "Invalid input: expected string, received number",
    );
  });
});
