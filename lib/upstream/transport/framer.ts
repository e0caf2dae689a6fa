import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * Splits a stdio byte stream into newline-delimited JSON-RPC messages, with a size limit per
 * message. The SDK's ReadBuffer throws and drops the connection when a message is too large,
 * and then misparses the rest of that message; here an oversized line is skipped to its end
 * and reported once — as an error response for its request when the id can be recovered, so
 * only that call fails and the server stays up for everyone else.
 */

export type Frame =
  | { kind: "message"; message: JSONRPCMessage }
  | { kind: "oversized"; bytes: number; responseId: string | number | undefined }
  | { kind: "invalid"; line: string; error: Error };

// Enough to see `{"jsonrpc":"2.0","id":123,"result"` at the start or `"jsonrpc":"2.0","id":123}` at the end.
const PEEK_BYTES = 256;

export class MessageFramer {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(readonly maxMessageBytes: number) {}

  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      const newline = rest.indexOf(10);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1);
      this.take(piece);
      if (newline !== -1) {
        const frame = this.endLine();
        if (frame) frames.push(frame);
      }
    }
    return frames;
  }

  private take(piece: Buffer): void {
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece]));
      return;
    }
    if (this.size + piece.length <= this.maxMessageBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    // Over the limit: keep only the ends (for the id) and drop the rest as it streams in.
    const head = Buffer.concat([...this.parts, piece.subarray(0, PEEK_BYTES)]).subarray(0, PEEK_BYTES);
    const tail = lastBytes(Buffer.concat([...this.parts.slice(-2), piece]));
    this.skipping = { bytes: this.size + piece.length, head, tail };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): Frame | undefined {
    if (this.skipping) {
      const { bytes, head, tail } = this.skipping;
      this.skipping = undefined;
      return {
        kind: "oversized",
        bytes,
        responseId: findResponseId(head.toString("utf8"), tail.toString("utf8")),
      };
    }
    const line = Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "");
    this.parts = [];
    this.size = 0;
    if (line.trim() === "") return undefined;
    try {
      return { kind: "message", message: deserializeMessage(line) };
    } catch (error) {
      return { kind: "invalid", line: line.slice(0, 200), error: error as Error };
    }
  }
}

const lastBytes = (buffer: Buffer) => buffer.subarray(Math.max(0, buffer.length - PEEK_BYTES));

const ID = String.raw`(\d+|"(?:[^"\\]|\\.)*")`;
// The SDK writes {"result":…,"jsonrpc":"2.0","id":N}; Python servers {"jsonrpc":"2.0","id":N,"result":…}.
const TAIL_ID = new RegExp(String.raw`"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*\}\s*$`);
const HEAD_ID = new RegExp(
  String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*,\s*"(?:result|error)"`,
);

/** The id of an oversized *response* (never of a request from the server), or undefined. */
function findResponseId(head: string, tail: string): string | number | undefined {
  const headMatch = HEAD_ID.exec(head);
  const tailMatch = /^\s*\{\s*"(?:result|error)"/.test(head) ? TAIL_ID.exec(tail) : null;
  const raw = headMatch?.[1] ?? tailMatch?.[1];
  if (raw === undefined) return undefined;
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
}
