import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseJsonText } from "@/lib/servers/import-export/parse-json-text";

function refusal(text: string): string {
  try {
    parseJsonText(text);
  } catch (error) {
    if (error instanceof AppError && error.code === "validation") return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe("parseJsonText", () => {
  it("reads JSON and JSONC alike: comments, trailing commas, a byte-order mark", () => {
    expect(parseJsonText('\uFEFF{"a": [1, 2.5e1, true, null, "\\u00e9\\n"]}')).toEqual({
      a: [1, 25, true, null, "é\n"],
    });
    expect(parseJsonText('// a file\n{ /* one */ "a": [1,], "b": {"c": 2,}, }\n// end')).toEqual({
      a: [1],
      b: { c: 2 },
    });
  });

  it("keeps a key named __proto__ as data, as JSON.parse does", () => {
    const value = parseJsonText('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("refuses a deeply nested document with a clear message instead of exhausting the stack", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(refusal(deep)).toBe(
      "The configuration is not valid JSON: line 1, column 201: nesting deeper than 200 levels.",
    );
    // The cap counts brackets, not characters that look like them inside strings.
    expect(parseJsonText(`["${"[".repeat(1_000)}"]`)).toEqual(["[".repeat(1_000)]);
    expect(parseJsonText("[".repeat(200) + "]".repeat(200))).toBeInstanceOf(Array);
  });

  it.each([
    ["   \n // nothing\n", 3, 1, "the text is empty"],
    ['{"a": 1} x', 1, 10, "unexpected text after the end of the JSON value"],
    ['{"a": 1} {}', 1, 10, "unexpected text after the end of the JSON value"],
    ['{"a" 1}', 1, 6, 'expected : after the property name "a"'],
    ["[1 2]", 1, 4, "expected , or ] after a list item"],
    ["[1, 2", 1, 6, "the text ends inside a list"],
    ['{"a": "b\nc"}', 1, 7, "a string is not closed before the end of the line"],
    ['{"a": "\\q"}', 1, 7, "invalid escape sequence in a string"],
    ['{"a": 1 /* open', 1, 9, "a /* comment is never closed"],
    ['{"a": ,}', 1, 7, 'expected a value but found ","'],
  ])("%j is refused at line %i, column %i: %s", (text, line, column, reason) => {
    expect(refusal(text)).toBe(
      `The configuration is not valid JSON: line ${line}, column ${column}: ${reason}.`,
    );
  });
});
