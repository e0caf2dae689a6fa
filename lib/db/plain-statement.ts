import { processSingleton } from "@/lib/process-singleton";
import type { Database } from "./client";
import { type QueryOperation, queryOperation, timedQuery } from "./query-timing";

/**
 * Statements on the hot path (the call journal), run in one round trip and one transaction, with
 * PostgreSQL's simple query protocol and literal arguments.
 *
 * Why not the query builder and bound parameters: on embedded PGlite a parameterised statement is
 * six calls into its engine (parse, describe, bind, describe, execute, sync), and parsing and
 * planning the journal's statements cost more than running them. So on PGlite each template is
 * prepared once per database (PREPARE) and run with EXECUTE; a batch of them is one `exec`, which
 * PostgreSQL runs as one implicit transaction. On a PostgreSQL server (a pool of connections, where
 * a PREPARE would live on one of them) the same templates are sent as plain statements, also as
 * one multi-statement simple query.
 */

/** A statement with $1…$n placeholders; `name` identifies it among prepared statements. */
export type StatementTemplate = { name: string; text: string };
export type BoundStatement = { template: StatementTemplate; args: string[] };

type PgliteClient = { exec: (text: string) => Promise<Array<{ rows: unknown[] }>> };
type PostgresClient = { unsafe: (text: string) => { simple: () => Promise<unknown> } };

// Per PGlite instance, on globalThis: Next.js bundles this module more than once, and every copy
// must know what the shared instance already has.
const prepared = processSingleton("Prepared", () => new WeakMap<PgliteClient, Map<string, Promise<void>>>());

/** Prepares `template` on `client` once, however many callers ask at the same moment. */
function prepare(client: PgliteClient, template: StatementTemplate): Promise<void> {
  const byName = prepared.get(client) ?? new Map<string, Promise<void>>();
  prepared.set(client, byName);
  let ready = byName.get(template.name);
  if (!ready) {
    ready = client.exec(`prepare ${template.name} as ${template.text}`).then(
      () => {},
      (error: unknown) => {
        // 42P05 duplicate_prepared_statement: prepared already (by a copy of this module) — fine.
        if ((error as { code?: string })?.code === "42P05") return;
        byName.delete(template.name);
        throw error;
      },
    );
    byName.set(template.name, ready);
  }
  return ready;
}

/** Runs `statements` (arguments already rendered with `literal`) together; each one's rows, in order. */
export function runStatements<Row>(db: Database, statements: BoundStatement[]): Promise<Row[][]> {
  return timedQuery(
    () => batchOperation(statements),
    () => runTogether<Row>(db, statements),
  );
}

/** A batch's verb for the query timing: its statements' one verb, or `other` when they differ. */
function batchOperation(statements: BoundStatement[]): QueryOperation {
  const verbs = new Set(statements.map(({ template }) => queryOperation(template.text)));
  return verbs.size === 1 ? ([...verbs][0] ?? "other") : "other";
}

async function runTogether<Row>(db: Database, statements: BoundStatement[]): Promise<Row[][]> {
  const client = (db as unknown as { $client: PgliteClient | PostgresClient }).$client;
  if ("exec" in client) {
    for (const { template } of statements) await prepare(client, template);
    const results = await client.exec(
      statements.map(({ template, args }) => `execute ${template.name}(${args.join(", ")})`).join(";\n"),
    );
    return results.map((result) => result.rows as Row[]);
  }
  const text = statements.map(({ template, args }) => bind(template.text, args)).join(";\n");
  const results = (await client.unsafe(text).simple()) as Row[] | Row[][];
  // One statement answers with its rows, several with one array of rows each.
  return statements.length === 1 ? [results as Row[]] : (results as Row[][]);
}

/** The template with each $n replaced by its argument, in one pass (arguments are never rescanned). */
function bind(text: string, args: string[]): string {
  return text.replace(/\$(\d+)/g, (placeholder, n: string) => {
    const arg = args[Number(n) - 1];
    if (arg === undefined) throw new Error(`No argument for ${placeholder}`);
    return arg;
  });
}

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
