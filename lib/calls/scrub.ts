import { REDACTED, scrubSecrets } from "@/lib/upstream/transport/stderr";

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
 * Every string in a JSON value (keys too) as it may be stored and shown: secret values replaced by
 * [redacted], and what PostgreSQL text and jsonb cannot hold — NUL, half a surrogate pair — by
 * U+FFFD. Walks the value rather than its serialization: a secret holding a quote or a backslash
 * is escaped in JSON text and would slip past a search there, and a replacement inside JSON text
 * could break it.
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0 && !holdsUnstorable(value)) return value;
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrubText(key, secrets)] = walk(item, secrets);
    return out;
  }
  return value;
}

/** NUL, or a surrogate without its pair: jsonb refuses the escape JSON.stringify writes for it. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const isUnstorable = (text: string) => text.search(UNSTORABLE) !== -1;

function holdsUnstorable(value: unknown): boolean {
  if (typeof value === "string") return isUnstorable(value);
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  if (value && typeof value === "object")
    return Object.entries(value).some(([key, item]) => isUnstorable(key) || holdsUnstorable(item));
  return false;
}

export function scrubText(text: string, secrets: readonly string[]): string {
  const storable = isUnstorable(text) ? text.replace(UNSTORABLE, "\uFFFD") : text;
  return secrets.length === 0 ? storable : scrubSecrets(storable, secrets);
}
