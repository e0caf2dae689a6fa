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
 * [redacted], and NUL — which PostgreSQL text and jsonb cannot hold — by U+FFFD. Walks the value
 * rather than its serialization: a secret holding a quote or a backslash is escaped in JSON text
 * and would slip past a search there, and a replacement inside JSON text could break it.
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0 && !holdsNul(value)) return value;
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

function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === "object")
    return Object.entries(value).some(([key, item]) => key.includes("\0") || holdsNul(item));
  return false;
}

export function scrubText(text: string, secrets: readonly string[]): string {
  const storable = text.includes("\0") ? text.replaceAll("\0", "\uFFFD") : text;
  return secrets.length === 0 ? storable : scrubSecrets(storable, secrets);
}
