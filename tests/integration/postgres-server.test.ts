import postgres from "postgres";
import { expect, inject, it } from "vitest";
import { createTestDatabase } from "../fixtures/postgres-server";

it("gives each caller its own empty database on a real PostgreSQL server", async () => {
  const adminUrl = inject("postgresUrl");
  const first = await createTestDatabase(adminUrl);
  const second = await createTestDatabase(adminUrl);
  expect(first).not.toBe(second);

  const sql = postgres(first, { max: 1 });
  try {
    const [row] = await sql<{ version: string; db: string; tables: number }[]>`
      select version(), current_database() as db,
        (select count(*)::int from pg_tables where schemaname = 'public') as tables`;
    expect(row?.version).toMatch(/^PostgreSQL \d+/);
    expect(row?.db).toBe(new URL(first).pathname.slice(1));
    expect(row?.tables).toBe(0);
  } finally {
    await sql.end();
  }
});
