import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * During a rolling deploy the previous release's replicas keep serving on the database the new
 * release has just migrated (docs/deployment.md#upgrades). That works only while every migration
 * is additive: a table or column the old code reads or writes must still be there, with the same
 * type, and accept the old code's inserts. This reads every migration and refuses a statement
 * that would break the release before it. A release that truly needs one says so in its notes
 * (stop every replica, then start the new version) and lists the file below, with why.
 */

const folder = path.join(process.cwd(), "db", "migrations");

/** Migrations allowed to break the release before them: file name → why (none so far). */
const BREAKING_ALLOWED: Record<string, string> = {};

const BREAKING: Array<[RegExp, string]> = [
  [/\bDROP\s+(TABLE|COLUMN|VIEW|SCHEMA|TYPE)\b/i, "drops what the previous release may use"],
  [/\bRENAME\b/i, "renames what the previous release uses by its old name"],
  [/\bALTER\s+COLUMN\s+"?[\w]+"?\s+(SET\s+DATA\s+)?TYPE\b/i, "changes a column's type"],
  [/\bSET\s+NOT\s+NULL\b/i, "makes a column required that the previous release may leave empty"],
  [/\bDROP\s+DEFAULT\b/i, "takes away a default the previous release's inserts rely on"],
];

/** `ADD COLUMN … NOT NULL` without a DEFAULT: the previous release's inserts do not fill it. */
const requiredWithoutDefault = (statement: string) =>
  /\bADD\s+COLUMN\b/i.test(statement) && /\bNOT\s+NULL\b/i.test(statement) && !/\bDEFAULT\b/i.test(statement);

function breakingStatements(sql: string): string[] {
  const problems: string[] = [];
  for (const statement of sql.split("--> statement-breakpoint")) {
    const text = statement.trim();
    if (!text) continue;
    for (const [pattern, why] of BREAKING) if (pattern.test(text)) problems.push(`${why}: ${text}`);
    if (requiredWithoutDefault(text))
      problems.push(`adds a required column without a default the previous release's inserts get: ${text}`);
  }
  return problems;
}

describe("migrations are additive, so two releases can share the database during a rolling deploy", () => {
  const files = readdirSync(folder).filter((name) => name.endsWith(".sql"));

  it("reads the migrations", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const file of files) {
    it(file, () => {
      const problems = breakingStatements(readFileSync(path.join(folder, file), "utf8"));
      if (BREAKING_ALLOWED[file]) return;
      expect(problems).toEqual([]);
    });
  }

  it("catches what would break the release before", () => {
    const cases = [
      'ALTER TABLE "calls" DROP COLUMN "status";',
      'DROP TABLE "replicas";',
      'ALTER TABLE "calls" RENAME COLUMN "status" TO "state";',
      'ALTER TABLE "calls" ALTER COLUMN "status" SET DATA TYPE integer;',
      'ALTER TABLE "calls" ALTER COLUMN "status" TYPE integer;',
      'ALTER TABLE "calls" ALTER COLUMN "note" SET NOT NULL;',
      'ALTER TABLE "calls" ALTER COLUMN "status" DROP DEFAULT;',
      'ALTER TABLE "calls" ADD COLUMN "replica_id" text NOT NULL;',
    ];
    for (const statement of cases) expect(breakingStatements(statement), statement).toHaveLength(1);
    const additive = [
      'ALTER TABLE "calls" ADD COLUMN "replica_id" text;',
      `ALTER TABLE "calls" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;`,
      'CREATE INDEX "calls_replica_idx" ON "calls" USING btree ("replica_id");',
      'DROP INDEX "calls_old_idx";',
    ];
    for (const statement of additive) expect(breakingStatements(statement), statement).toEqual([]);
  });
});
