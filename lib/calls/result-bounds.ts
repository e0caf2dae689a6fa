import type { CallKind } from "@/db/schema";
import { scrubValue } from "./scrub";

/**
 * What is stored and returned of a tool's result (or a resource read's, a prompt's): secrets
 * scrubbed, then cut to a size budget.
 * A result past the budget keeps its content items in order as long as they fit, cuts the text
 * item that crosses the line, replaces binary items that don't fit with a note, and ends with a
 * text item saying what was cut — so a person (or a model) can tell the result is incomplete.
 */

export const MAX_RESULT_BYTES = 256 * 1024;
/** Room kept for the truncation notice and the JSON around the items. */
const RESERVE_BYTES = 1024;

export type BoundedResult = Record<string, unknown> & {
  content?: unknown[];
  isError?: boolean;
  /** present only when something was cut */
  truncated?: { originalBytes: number; limitBytes: number };
};

const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/** Which list of a result holds its items: a tool's content, a read's contents, a prompt's messages. */
export type ResultList = "content" | "contents" | "messages";

export const resultListOf = (kind: CallKind): ResultList =>
  kind === "resource_read" ? "contents" : kind === "prompt_get" ? "messages" : "content";

export function boundResult(
  result: unknown,
  options: { secrets: readonly string[]; maxBytes?: number; list?: ResultList },
): BoundedResult {
  const maxBytes = options.maxBytes ?? MAX_RESULT_BYTES;
  const list = options.list ?? "content";
  const scrubbed = scrubValue(asObject(result), options.secrets);
  const originalBytes = sizeOf(scrubbed);
  if (originalBytes <= maxBytes) return scrubbed;

  const budget = Math.max(maxBytes - RESERVE_BYTES, 0);
  const listed = scrubbed[list];
  const items = Array.isArray(listed) ? listed : [textItem(list, JSON.stringify(scrubbed))];
  const kept: unknown[] = [];
  let used = 0;
  let omitted = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (used + size <= budget) {
      kept.push(item);
      used += size;
      continue;
    }
    const text = textOf(list, item);
    if (text !== undefined && budget - used > 64) {
      kept.push(withText(list, item, cutToBytes(text, budget - used - 64)));
      used = budget;
    } else {
      omitted++;
    }
  }
  const structuredFits =
    scrubbed.structuredContent !== undefined && used + sizeOf(scrubbed.structuredContent) <= budget;
  const notice =
    `[Switchboard: the result was ${formatKiB(originalBytes)}, over the ${formatKiB(maxBytes)} limit; it was cut` +
    `${omitted > 0 ? ` and ${omitted} content item(s) were left out` : ""}` +
    `${scrubbed.structuredContent !== undefined && !structuredFits ? " (structured content left out)" : ""}.]`;
  return {
    [list]: [...kept, textItem(list, notice)],
    ...(structuredFits ? { structuredContent: scrubbed.structuredContent } : {}),
    ...(scrubbed.isError === true ? { isError: true } : {}),
    ...(typeof scrubbed.description === "string" && list === "messages"
      ? { description: cutToBytes(scrubbed.description, 512) }
      : {}),
    truncated: { originalBytes, limitBytes: maxBytes },
  };
}

/** A text item of the list's kind: a text content, a text resource, a user message. */
function textItem(list: ResultList, text: string): Record<string, unknown> {
  switch (list) {
    case "content":
      return { type: "text", text };
    case "contents":
      return { uri: "switchboard://notice", mimeType: "text/plain", text };
    case "messages":
      return { role: "user", content: { type: "text", text } };
  }
}

function textOf(list: ResultList, item: unknown): string | undefined {
  const candidate = item as { type?: unknown; text?: unknown; content?: { type?: unknown; text?: unknown } };
  switch (list) {
    case "content":
      return candidate?.type === "text" && typeof candidate.text === "string" ? candidate.text : undefined;
    case "contents":
      return typeof candidate?.text === "string" ? candidate.text : undefined;
    case "messages":
      return candidate?.content?.type === "text" && typeof candidate.content.text === "string"
        ? candidate.content.text
        : undefined;
  }
}

function withText(list: ResultList, item: unknown, text: string): unknown {
  const original = item as Record<string, unknown>;
  switch (list) {
    case "content":
      return { type: "text", text };
    case "contents":
      return { ...original, text };
    case "messages":
      return { ...original, content: { ...(original.content as object), text } };
  }
}

function asObject(result: unknown): BoundedResult {
  if (result && typeof result === "object" && !Array.isArray(result)) return result as BoundedResult;
  return { content: [{ type: "text", text: String(result) }] };
}

/** The longest prefix within `bytes` UTF-8 bytes of JSON (escapes included), never half a character. */
function cutToBytes(text: string, bytes: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sizeOf(text.slice(0, mid)) <= bytes) low = mid;
    else high = mid - 1;
  }
  let end = low;
  // Don't leave a lone high surrogate at the end.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

function formatKiB(bytes: number): string {
  return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
}
