import { describe, expect, it } from "vitest";
import { isFormable, toFormFields } from "@/components/playground/schema-form/form-model";
import {
  cleanValue,
  InvalidJson,
  initialValues,
  toArgs,
  validateJsonArgs,
  validateValues,
} from "@/components/playground/schema-form/form-values";
import { predictApproval } from "@/components/tools/approval-policy";
import { effectOrder } from "@/components/tools/effects";
import { decideApprovalGate } from "@/lib/policy/approval-gate";
import { effectClasses } from "@/lib/policy/effects";

const schema = {
  type: "object",
  properties: {
    text: { type: "string", description: "text to count" },
    zone: { type: "string", format: "date-time" },
    limit: { type: "integer", minimum: 1, default: 10 },
    ratio: { type: ["number", "null"] },
    verbose: { type: "boolean" },
    mode: { enum: ["fast", "slow"] },
    level: { anyOf: [{ const: "low" }, { const: "high" }] },
    tags: { type: "array", items: { type: "string" } },
    rows: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
    owner: { $ref: "#/$defs/Person" },
    either: { anyOf: [{ type: "object" }, { type: "string" }] },
  },
  required: ["text", "owner"],
  $defs: { Person: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};

describe("input schema → form fields", () => {
  const fields = toFormFields(schema);
  const kinds = Object.fromEntries(fields.map((f) => [f.name, f.type.kind]));

  it("maps each property to the control that can express it, and the rest to JSON", () => {
    expect(kinds).toEqual({
      text: "string",
      zone: "string",
      limit: "number",
      ratio: "number",
      verbose: "boolean",
      mode: "enum",
      level: "enum",
      tags: "array",
      rows: "json",
      owner: "object",
      either: "json",
    });
  });

  it("keeps required marks, descriptions, defaults and nested fields behind a local $ref", () => {
    const text = fields.find((f) => f.name === "text");
    expect(text).toMatchObject({ isRequired: true, description: "text to count" });
    expect(text?.type).toMatchObject({ kind: "string", isMultiline: true });
    expect(fields.find((f) => f.name === "zone")?.type).toMatchObject({
      isMultiline: false,
      format: "date-time",
    });
    expect(fields.find((f) => f.name === "limit")).toMatchObject({
      defaultValue: 10,
      type: { isInteger: true, min: 1 },
    });
    const owner = fields.find((f) => f.name === "owner");
    expect(owner?.type.kind === "object" && owner.type.fields.map((f) => [f.name, f.isRequired])).toEqual([
      ["name", true],
    ]);
  });

  it.each([
    [undefined, true],
    [{ type: "object" }, true],
    [schema, true],
    [{ type: "object", additionalProperties: { type: "string" } }, false],
    ["not a schema", false],
  ])("isFormable(%j) is %s", (input, expected) => {
    expect(isFormable(input)).toBe(expected);
  });

  it("stays bounded on a recursive schema", () => {
    const tree = { type: "object", properties: { child: { $ref: "#" } } };
    expect(() => toFormFields(tree)).not.toThrow();
  });
});

describe("form values", () => {
  const fields = toFormFields(schema);

  it("starts from the defaults, with required objects present", () => {
    expect(initialValues(fields)).toEqual({ limit: 10, owner: {} });
  });

  // Checked by ajv against the tool's schema since the move off hand-written checks: the wording
  // names the field ("text is required.") where it used to say "Required." / "Must be a whole number.".
  it("reports missing required fields (nested too), bad JSON and fractional integers by path", () => {
    const errors = validateValues(schema, fields, { limit: 1.5, owner: {}, either: new InvalidJson("{") });
    expect(errors).toEqual({
      text: "text is required.",
      limit: "limit must be a whole number.",
      "owner.name": "name is required.",
      either: "Not valid JSON yet.",
    });
  });

  it.each([
    ["a number under the minimum", { limit: 0 }, "limit", "limit must be at least 1."],
    ["a value outside the enum", { mode: "medium" }, "mode", "mode must be one of “fast”, “slow”."],
    [
      "a union none of whose shapes fits",
      { level: "mid" },
      "level",
      "level does not match any of the shapes the tool accepts.",
    ],
    ["a list item of the wrong type", { tags: ["a", 2] }, "tags", "tags item 2 must be text."],
    ["a nullable number given text", { ratio: "x" }, "ratio", "ratio must be a number or null."],
    ["a wrong type inside a JSON field", { rows: [{ a: 1 }] }, "rows", "rows item 1 → a must be text."],
  ])("says what is wrong beside the field: %s", (_, input, field, message) => {
    const errors = validateValues(schema, fields, { text: "x", owner: { name: "n" }, ...input });
    expect(errors).toEqual({ [field]: message });
  });

  it("accepts a value the schema accepts", () => {
    expect(
      validateValues(schema, fields, { text: "x", owner: { name: "n" }, limit: 3, tags: ["a"] }),
    ).toEqual({});
  });

  it("says above the form what no field shows", () => {
    const closed = { ...schema, additionalProperties: false };
    expect(
      validateValues(closed, toFormFields(closed), { text: "x", owner: { name: "n" }, extra: 1 }),
    ).toEqual({
      "": "extra is not an argument the tool takes.",
    });
  });

  it.each([
    ["a remote $ref", { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } }],
    ["a keyword with a value of the wrong kind", { type: "object", properties: { a: { type: 12 } } }],
  ])("does not check, nor throw, on a schema ajv cannot compile: %s", (_, broken) => {
    expect(validateValues(broken, toFormFields(broken), { a: "anything" })).toEqual({});
  });

  it("reads a 2020-12 schema with the 2020 vocabulary", () => {
    const modern = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] } },
    };
    expect(validateValues(modern, toFormFields(modern), { pair: ["a", "b"] })).toEqual({
      pair: "pair item 2 must be a whole number.",
    });
  });

  it("lists the JSON editor's problems by path", () => {
    expect(validateJsonArgs(schema, { owner: {}, limit: "ten" })).toEqual([
      "text is required.",
      "limit must be a whole number.",
      "owner.name is required.",
    ]);
  });

  it("leaves out what was left empty, including blank array rows", () => {
    expect(cleanValue({ a: undefined, b: [1, undefined, 2], c: { d: undefined, e: "x" } })).toEqual({
      b: [1, 2],
      c: { e: "x" },
    });
  });

  it.each([
    [undefined, { ok: true, args: {} }],
    [{ a: 1 }, { ok: true, args: { a: 1 } }],
    [[1], { ok: false, message: "The arguments must be a JSON object." }],
    [new InvalidJson("{"), { ok: false, message: "Not valid JSON yet." }],
  ])("toArgs(%j)", (value, expected) => {
    expect(toArgs(value)).toEqual(expected);
  });
});

describe("browser mirrors of server rules", () => {
  it("lists the effect classes in the server's order", () => {
    expect([...effectOrder]).toEqual([...effectClasses]);
  });

  const rules = ["by-effect", "always", "never"] as const;
  const policies = [
    ["external-write", "destructive"],
    [],
    ["read", "write", "external-write", "destructive"],
  ] as const;
  const cases = effectClasses.flatMap((effect) =>
    rules.flatMap((rule) =>
      [true, false].flatMap((isClassified) =>
        policies.map((p) => ({ effect, rule, isClassified, p: [...p] })),
      ),
    ),
  );
  it.each(cases)(
    "predictApproval agrees with decideApprovalGate: %j",
    ({ effect, rule, isClassified, p }) => {
      const policy = { requireApprovalFor: p };
      const server = decideApprovalGate({ effect, isClassified, rule, policy }).kind === "needs_approval";
      expect(predictApproval({ enforcedEffect: effect, isClassified, approvalRule: rule }, policy)).toBe(
        server,
      );
    },
  );
});
