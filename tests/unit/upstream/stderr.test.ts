import { describe, expect, it } from "vitest";
import { REDACTED, StderrBuffer, scrubSecrets } from "@/lib/upstream/transport/stderr";

const SECRET = "ghp_0123456789abcdef";

describe("scrubSecrets", () => {
  it.each([
    ["token=ghp_0123456789abcdef end", `token=${REDACTED} end`],
    ["twice ghp_0123456789abcdef ghp_0123456789abcdef", `twice ${REDACTED} ${REDACTED}`],
    ["nothing here", "nothing here"],
  ])("%s", (input, expected) => {
    expect(scrubSecrets(input, [SECRET])).toBe(expected);
  });

  it("ignores values too short to scrub without blanking ordinary text", () => {
    expect(scrubSecrets("a cat sat", ["a", "at"])).toBe("a cat sat");
  });
});

describe("StderrBuffer", () => {
  it("scrubs a secret split across chunks, at any split point", () => {
    const line = `auth with ${SECRET} ok\n`;
    for (let cut = 1; cut < line.length; cut++) {
      const buffer = new StderrBuffer();
      buffer.addSecrets([SECRET]);
      const emitted = buffer.write(line.slice(0, cut)) + buffer.write(line.slice(cut));
      expect(buffer.text(), `cut at ${cut}`).toBe(`auth with ${REDACTED} ok\n`);
      expect(emitted).not.toContain(SECRET.slice(0, 6));
    }
  });

  it("holds back only what could still become a secret, and releases it on flush", () => {
    const buffer = new StderrBuffer();
    buffer.addSecrets([SECRET]);
    expect(buffer.write("prefix ghp_01")).toBe("prefix ");
    expect(buffer.text()).toBe("prefix ");
    expect(buffer.flush()).toBe("ghp_01");
    expect(buffer.text()).toBe("prefix ghp_01");
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    const buffer = new StderrBuffer();
    buffer.addSecrets(["abcd", "abcdefgh"]);
    buffer.write("x abcdefgh y\n");
    expect(buffer.text()).toBe(`x ${REDACTED} y\n`);
  });

  it("is bounded: keeps the most recent output", () => {
    const buffer = new StderrBuffer(1000);
    for (let i = 0; i < 300; i++) buffer.write(`line ${i}\n`);
    expect(buffer.text().length).toBe(1000);
    expect(buffer.text().endsWith("line 299\n")).toBe(true);
    expect(buffer.text()).not.toContain("\nline 1\n");
  });

  it("tail returns the last characters", () => {
    const buffer = new StderrBuffer();
    buffer.write("a".repeat(5000));
    buffer.write("END");
    expect(buffer.tail(4000)).toHaveLength(4000);
    expect(buffer.tail(4000).endsWith("END")).toBe(true);
  });

  it("notes start on a line of their own", () => {
    const buffer = new StderrBuffer();
    buffer.write("no newline");
    buffer.note("process 12 exited with code 1");
    expect(buffer.text()).toBe("no newline\n[switchboard] process 12 exited with code 1\n");
  });
});
