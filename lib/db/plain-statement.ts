import type { Database } from "./client";

/**
 * One statement as plain text, sent with PostgreSQL's simple query protocol: a single round trip
 * on either driver. A parameterised statement costs PGlite six calls into its engine (parse,
 * describe, bind, describe, execute, sync) — ~0.3 ms a statement on these machines, a third of a
 * journal write (BENCHMARKS.md). Only for statements on the hot path, built from `literal` values.
 */
export async function runPlainStatement<Row>(db: Database, text: string): Promise<Row[]> {
  const client = (db as unknown as { $client: PlainClient }).$client;
  if ("exec" in client) {
    const results = await client.exec(text);
    return (results.at(-1)?.rows ?? []) as Row[];
  }
  return (await client.unsafe(text)) as Row[];
}

type PlainClient =
  | { exec: (text: string) => Promise<Array<{ rows: unknown[] }>> }
  | { unsafe: (text: string) => Promise<unknown[]> };

/**
 * A value as an SQL literal. Strings use the escape-string form (E'…', quotes and backslashes
 * doubled), which reads the same whatever `standard_conforming_strings` says. PostgreSQL text
 * cannot hold NUL, which would also end the statement early: it becomes U+FFFD.
 */
export function literal(value: string | number | null): string {
  if (value === null) return "null";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''").replaceAll("\0", "\uFFFD")}'`;
}
