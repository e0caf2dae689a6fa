import { describe, expect, it } from "vitest";
import { readSse, type SseMessage } from "@/cli/sse";

/** A body that arrives in exactly these chunks (strings or raw bytes). */
function body(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function read(chunks: Array<string | Uint8Array>): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSse(body(chunks))) messages.push(message);
  return messages;
}

const event = (data: string, more: { id?: string; event?: string } = {}): SseMessage => ({
  kind: "event",
  id: more.id,
  event: more.event ?? "message",
  data,
});

describe("the CLI's SSE reader (switchboard events tail)", () => {
  it.each([
    ["LF", "id: 1\nevent: call.requested\ndata: {}\n\n"],
    ["CRLF", "id: 1\r\nevent: call.requested\r\ndata: {}\r\n\r\n"],
    // A CR at the very end may be half of a CRLF, so the parser waits for what follows it.
    ["CR", "id: 1\revent: call.requested\rdata: {}\r\r: keep-alive\r"],
  ])("reads %s line endings", async (_, text) => {
    expect(await read([text])).toEqual([event("{}", { id: "1", event: "call.requested" })]);
  });

  it("joins a CRLF split between chunks, and a character split between its bytes", async () => {
    const bytes = new TextEncoder().encode("data: é\r\n\r\n");
    expect(await read(["id: 7\r", "\nevent: x\r\n", bytes.slice(0, 7), bytes.slice(7)])).toEqual([
      event("é", { id: "7", event: "x" }),
    ]);
  });

  it("skips comments, joins multi-line data, names unnamed events 'message'", async () => {
    expect(await read([": connected\n\ndata: a\ndata: b\n\n: heartbeat\n\n"])).toEqual([event("a\nb")]);
  });

  it("surfaces the server's reconnection delay, and ignores one that is not a number", async () => {
    expect(await read(["retry: 50\n\nretry: soon\n\ndata: x\n\n"])).toEqual([
      { kind: "retry", retryMs: 50 },
      event("x"),
    ]);
  });

  it("ignores an id containing NUL, a leading BOM, and an unfinished last event", async () => {
    expect(await read(["\uFEFFid: 1\0\ndata: x\n\ndata: cut off"])).toEqual([event("x")]);
  });
});
