import { REDACTED, scrubSecrets } from "@/lib/mcp/stderr-buffer";

export { REDACTED };

/** Shorter values would blank out ordinary words (the same floor as the stderr scrubber). */
const MIN_SECRET_LENGTH = 4;

/** Longest first, so a secret that contains another is replaced whole; too-short ones dropped. */
export function normalizeSecrets(values: Iterable<string>): string[] {
  return [...new Set(values)]
    .filter((v) => v.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/**
 * Every string in a JSON value (keys too) with secret values replaced by [redacted]. Walks the
 * value rather than its serialization: a secret holding a quote or a backslash is escaped in JSON
 * text and would slip past a search there, and a replacement inside JSON text could break it.
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrubSecrets(key, secrets)] = walk(item, secrets);
    return out;
  }
  return value;
}

export function scrubText(text: string, secrets: readonly string[]): string {
  return secrets.length === 0 ? text : scrubSecrets(text, secrets);
}
