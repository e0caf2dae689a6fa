/**
 * One Server-Sent Events block (https://html.spec.whatwg.org/multipage/server-sent-events.html).
 * `data` is undefined for a block that only sets `retry:` (the reconnection delay).
 */
export type SseMessage = {
  id: string | undefined;
  event: string;
  data: string | undefined;
  retry: number | undefined;
};

/**
 * Reads SSE messages from a streamed response body. Comments (": keep-alive") are skipped; a
 * message is dispatched at each blank line, as a browser's EventSource does.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = "";
  let message = emptyMessage();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r\n|\r|\n/);
    while (newline !== -1) {
      // A lone "\r" at the end may be the first half of "\r\n": wait for the next chunk.
      if (buffer[newline] === "\r" && newline === buffer.length - 1) break;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (message.data !== undefined) {
          yield {
            id: message.id,
            event: message.event ?? "message",
            data: message.data,
            retry: message.retry,
          };
        }
        message = emptyMessage();
      } else applyLine(message, line);
      newline = buffer.search(/\r\n|\r|\n/);
    }
  }
}

type Partial = { id?: string; event?: string; data?: string; retry?: number };
const emptyMessage = (): Partial => ({});

function applyLine(message: Partial, line: string): void {
  if (line.startsWith(":")) return;
  const colon = line.indexOf(":");
  const field = colon === -1 ? line : line.slice(0, colon);
  const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
  if (field === "data") message.data = message.data === undefined ? value : `${message.data}\n${value}`;
  else if (field === "event") message.event = value;
  else if (field === "id" && !value.includes("\0")) message.id = value;
  else if (field === "retry" && /^\d+$/.test(value)) message.retry = Number(value);
}
