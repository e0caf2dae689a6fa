import { describe, expect, it } from "vitest";
import { type Frame, MessageFramer } from "@/lib/upstream/transport/framer";

const line = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);
const response = (id: number | string, text: string) => ({
  result: { content: [{ type: "text", text }] },
  jsonrpc: "2.0",
  id,
});

function feed(framer: MessageFramer, data: Buffer, chunkSize: number): Frame[] {
  const frames: Frame[] = [];
  for (let i = 0; i < data.length; i += chunkSize)
    frames.push(...framer.push(data.subarray(i, i + chunkSize)));
  return frames;
}

describe("MessageFramer", () => {
  it.each([1, 7, 64, 100_000])("reassembles messages split into %i-byte chunks", (chunkSize) => {
    const data = Buffer.concat([
      line(response(1, "one")),
      line(response(2, "two ✓")),
      line({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }),
    ]);
    const frames = feed(new MessageFramer(1024), data, chunkSize);
    expect(frames.map((f) => f.kind)).toEqual(["message", "message", "message"]);
    expect(frames[1]).toMatchObject({ message: { id: 2, result: { content: [{ text: "two ✓" }] } } });
  });

  it.each([1000, 4096])(
    "an oversized response (SDK field order) is skipped and reported with its id; the next message still parses (chunks of %i)",
    (chunkSize) => {
      const framer = new MessageFramer(1024);
      const data = Buffer.concat([line(response(7, "x".repeat(50_000))), line(response(8, "small"))]);
      const frames = feed(framer, data, chunkSize);
      expect(frames).toHaveLength(2);
      expect(frames[0]).toMatchObject({ kind: "oversized", responseId: 7 });
      expect((frames[0] as { bytes: number }).bytes).toBeGreaterThan(50_000);
      expect(frames[1]).toMatchObject({ kind: "message", message: { id: 8 } });
    },
  );

  it("finds the id of an oversized response that puts jsonrpc and id first (Python servers)", () => {
    const framer = new MessageFramer(100);
    const frames = framer.push(line({ jsonrpc: "2.0", id: "req-9", result: { blob: "y".repeat(500) } }));
    expect(frames[0]).toMatchObject({ kind: "oversized", responseId: "req-9" });
  });

  it("never mistakes an oversized request from the server for a response", () => {
    const framer = new MessageFramer(100);
    const frames = framer.push(
      line({ method: "sampling/createMessage", params: { x: "z".repeat(500) }, jsonrpc: "2.0", id: 3 }),
    );
    expect(frames[0]).toMatchObject({ kind: "oversized", responseId: undefined });
  });

  it("reports non-JSON-RPC lines without losing the stream", () => {
    const framer = new MessageFramer(1024);
    const frames = framer.push(
      Buffer.concat([Buffer.from("Server starting on stdout, oops\n"), line(response(1, "ok"))]),
    );
    expect(frames.map((f) => f.kind)).toEqual(["invalid", "message"]);
    expect(frames[0]).toMatchObject({ line: "Server starting on stdout, oops" });
  });

  it("accepts CRLF line endings and skips blank lines", () => {
    const framer = new MessageFramer(1024);
    const frames = framer.push(Buffer.from(`\n${JSON.stringify(response(1, "a"))}\r\n\n`));
    expect(frames).toEqual([{ kind: "message", message: response(1, "a") }]);
  });
});
