import { describe, expect, it } from "vitest";
import { boundResult, MAX_RESULT_BYTES } from "@/lib/calls/result-bounds";
import { normalizeSecrets, REDACTED, scrubValue } from "@/lib/calls/scrub";

const CANARY = "sk-canary-7f3c9a1b2d";
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

describe("scrubbing secret values out of JSON", () => {
  it.each([
    ["a string", `token ${CANARY}`, `token ${REDACTED}`],
    [
      "nested values",
      { a: [{ b: `x${CANARY}y` }], n: 3, t: true, z: null },
      { a: [{ b: `x${REDACTED}y` }], n: 3, t: true, z: null },
    ],
    ["keys", { [CANARY]: 1 }, { [REDACTED]: 1 }],
    ["no secret", { a: "plain" }, { a: "plain" }],
  ])("%s", (_, input, expected) => {
    expect(scrubValue(input, [CANARY])).toEqual(expected);
  });

  it("finds a secret with JSON-escaped characters, which a search in JSON text would miss", () => {
    const secret = 'p"a\\ss\nword';
    const scrubbed = scrubValue({ password: `is ${secret}` }, [secret]);
    expect(JSON.stringify(scrubbed)).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(scrubbed).toEqual({ password: `is ${REDACTED}` });
  });

  it("turns NUL, which the database cannot store, into U+FFFD in values and names, secrets or not", () => {
    const input = { "a\u0000b": ["x\u0000y", 1], c: "plain" };
    const expected = { "a\uFFFDb": ["x\uFFFDy", 1], c: "plain" };
    expect(scrubValue(input, [])).toEqual(expected);
    expect(scrubValue(input, [CANARY])).toEqual(expected);
    const clean = { c: "plain" };
    expect(scrubValue(clean, [])).toBe(clean); // nothing to do: the same object back
  });

  it("replaces a longer secret whole before a shorter one inside it", () => {
    const secrets = normalizeSecrets(["abcd", "xxabcdxx", "ab"]);
    expect(secrets).toEqual(["xxabcdxx", "abcd"]);
    expect(scrubValue("1 xxabcdxx 2 abcd", secrets)).toBe(`1 ${REDACTED} 2 ${REDACTED}`);
  });
});

describe("bounding results", () => {
  it("leaves a small result as it is (scrubbed)", () => {
    const result = { content: [{ type: "text", text: `hello ${CANARY}` }], structuredContent: { n: 1 } };
    expect(boundResult(result, { secrets: [CANARY] })).toEqual({
      content: [{ type: "text", text: `hello ${REDACTED}` }],
      structuredContent: { n: 1 },
    });
  });

  it.each([
    ["one huge text", { content: [{ type: "text", text: "é".repeat(400_000) }] }],
    [
      "many texts",
      { content: Array.from({ length: 100 }, (_, i) => ({ type: "text", text: `${i}`.repeat(5000) })) },
    ],
    [
      "a huge image",
      {
        content: [
          { type: "text", text: "caption" },
          { type: "image", mimeType: "image/png", data: "A".repeat(600_000) },
        ],
      },
    ],
    [
      "huge structured content",
      { content: [{ type: "text", text: "ok" }], structuredContent: { rows: "x".repeat(300_000) } },
    ],
    ["an error result", { isError: true, content: [{ type: "text", text: "e".repeat(300_000) }] }],
    ["no content array", { toolResult: "r".repeat(300_000) }],
  ])("cuts %s to the limit with a notice", (_, result) => {
    const bounded = boundResult(result, { secrets: [] });
    expect(bytes(bounded)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(bounded.truncated).toEqual({ originalBytes: bytes(result), limitBytes: MAX_RESULT_BYTES });
    const last = bounded.content?.at(-1) as { type: string; text: string };
    expect(last.type).toBe("text");
    expect(last.text).toMatch(/^\[Switchboard: the result was .* KiB, over the 256 KiB limit; it was cut/);
    if ((result as { isError?: boolean }).isError) expect(bounded.isError).toBe(true);
  });

  it("keeps what fits in order and cuts the item that crosses the line", () => {
    const result = {
      content: [
        { type: "text", text: "first" },
        { type: "text", text: "y".repeat(10_000) },
      ],
    };
    const bounded = boundResult(result, { secrets: [], maxBytes: 4096 });
    const texts = (bounded.content as Array<{ text: string }>).map((c) => c.text);
    expect(texts[0]).toBe("first");
    expect(texts[1]).toMatch(/^y+$/);
    expect(texts[1]?.length).toBeGreaterThan(2000);
    expect(bytes(bounded)).toBeLessThanOrEqual(4096);
  });

  it("scrubs before cutting, so a secret cut in half cannot survive", () => {
    const text = `${"a".repeat(3000)}${CANARY}`.repeat(10);
    const bounded = boundResult({ content: [{ type: "text", text }] }, { secrets: [CANARY], maxBytes: 4096 });
    expect(JSON.stringify(bounded)).not.toContain(CANARY.slice(0, 8));
  });

  it("never ends on half a surrogate pair", () => {
    const bounded = boundResult(
      { content: [{ type: "text", text: "😀".repeat(5000) }] },
      { secrets: [], maxBytes: 4096 },
    );
    const text = (bounded.content?.[0] as { text: string } | undefined)?.text ?? "";
    expect(text).toBe("😀".repeat(text.length / 2));
  });
});
