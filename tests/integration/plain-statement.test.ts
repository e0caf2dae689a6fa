import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseDriver, DatabaseHandle } from "@/lib/db/client";
import { literal, runStatements, type StatementTemplate } from "@/lib/db/plain-statement";
import { drivers, openTestDatabase } from "../fixtures/databases";

/*
 * The journal's statement runner against both drivers: several templates in one round trip, each
 * with its own rows, any text as a literal, and (PGlite) a template prepared only once even when
 * many callers, or another copy of the module, get there first.
 */

const echo: StatementTemplate = { name: "test_echo", text: "select $1::text as value, $2::int as n" };

describe.each(drivers)("runStatements (%s)", (driver: DatabaseDriver) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("runs several statements in one go and gives each its own rows, any text intact", async () => {
    const tricky = `it's a \\ backslash, E'quoted', $1 and $$dollars$$ ${"\u{1F389}"}`;
    const rows = await runStatements<{ value: string; n: number }>(handle.db, [
      { template: echo, args: [literal("first"), literal(1)] },
      { template: echo, args: [literal(tricky), literal(-2)] },
    ]);
    expect(rows).toEqual([[{ value: "first", n: 1 }], [{ value: tricky, n: -2 }]]);
    expect(await runStatements(handle.db, [{ template: echo, args: [literal(null), literal(3)] }])).toEqual([
      [{ value: null, n: 3 }],
    ]);
  });

  it("prepares a template once for many callers at the same moment", async () => {
    const template = { name: "test_concurrent", text: "select $1::int * 2 as doubled" };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => runStatements(handle.db, [{ template, args: [literal(i)] }])),
    );
    expect(answers.map(([rows]) => rows)).toEqual(Array.from({ length: 8 }, (_, i) => [{ doubled: i * 2 }]));
  });

  it.runIf(driver === "pglite")("uses a template another copy of the module prepared first", async () => {
    const template = { name: "test_prepared_elsewhere", text: "select $1::text as value" };
    await (handle.client as PGlite).exec(`prepare ${template.name} as ${template.text}`);
    expect(await runStatements(handle.db, [{ template, args: [literal("still fine")] }])).toEqual([
      [{ value: "still fine" }],
    ]);
  });
});
