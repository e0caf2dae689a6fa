import { scrubValue } from "./scrub";

/**
 * What is stored and returned of a tool's result: secrets scrubbed, then cut to a size budget.
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

export function boundResult(
  result: unknown,
  options: { secrets: readonly string[]; maxBytes?: number },
): BoundedResult {
  const maxBytes = options.maxBytes ?? MAX_RESULT_BYTES;
  const scrubbed = scrubValue(asObject(result), options.secrets);
  const originalBytes = sizeOf(scrubbed);
  if (originalBytes <= maxBytes) return scrubbed;

  const budget = Math.max(maxBytes - RESERVE_BYTES, 0);
  const items = Array.isArray(scrubbed.content)
    ? scrubbed.content
    : [{ type: "text", text: JSON.stringify(scrubbed) }];
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
    const text = textOf(item);
    if (text !== undefined && budget - used > 64) {
      kept.push({ type: "text", text: cutToBytes(text, budget - used - 64) });
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
    content: [...kept, { type: "text", text: notice }],
    ...(structuredFits ? { structuredContent: scrubbed.structuredContent } : {}),
    ...(scrubbed.isError === true ? { isError: true } : {}),
    truncated: { originalBytes, limitBytes: maxBytes },
  };
}

function asObject(result: unknown): BoundedResult {
  if (result && typeof result === "object" && !Array.isArray(result)) return result as BoundedResult;
  return { content: [{ type: "text", text: String(result) }] };
}

function textOf(item: unknown): string | undefined {
  const candidate = item as { type?: unknown; text?: unknown };
  return candidate?.type === "text" && typeof candidate.text === "string" ? candidate.text : undefined;
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
