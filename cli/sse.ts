import { createParser } from "eventsource-parser";

/**
 * What a Server-Sent Events stream says (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 * an event (its type "message" unless named, as EventSource has it), or a new reconnection delay.
 */
export type SseMessage =
  | { kind: "event"; id: string | undefined; event: string; data: string }
  | { kind: "retry"; retryMs: number };

/**
 * Reads a streamed response body with eventsource-parser, the spec's parsing rules (line endings,
 * BOM, comments, multi-line data, ids with NUL ignored) kept by people who test them.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const parsed: SseMessage[] = [];
  const parser = createParser({
    onEvent: ({ id, event, data }) => parsed.push({ kind: "event", id, event: event ?? "message", data }),
    onRetry: (retryMs) => parsed.push({ kind: "retry", retryMs }),
  });
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* parsed.splice(0);
  }
}
