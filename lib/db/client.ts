import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "@/db/schema";
import { acquireDataDirLock } from "./data-dir-lock";
import { secureDataDir } from "./data-dir-permissions";
import { timePreparedQueries } from "./query-timing";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseDriver = "pglite" | "postgres";

export type DatabaseHandle = {
  db: Database;
  driver: DatabaseDriver;
  /** The raw client, for LISTEN/NOTIFY and snapshots; services use `db`. */
  client: PGlite | postgres.Sql;
  /** PGlite's data folder, this process's alone (undefined: PostgreSQL, or PGlite in memory). */
  dataDir?: string;
  close(): Promise<void>;
};

export type OpenDatabaseOptions =
  | { driver: "postgres"; url: string }
  /** dataDir undefined = in memory; loadDataDir starts from a dumped snapshot (tests). */
  | { driver: "pglite"; dataDir?: string; loadDataDir?: Blob | File };

const MIGRATION_LOCK_ID = 727_274;
/** How a Switchboard process names its PostgreSQL connections: `switchboard:<random id>`. */
export const RUNNER_PREFIX = "switchboard:";
const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/** Opens and migrates a database. Callers own the handle; the app's handle lives in ./process-db. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  timePreparedQueries();
  if (options.driver === "postgres") return openPostgres(options.url);
  return openPglite(options.dataDir, options.loadDataDir);
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  // Every connection of this process carries its name: a call's row records it (calls.runner), and
  // a process with no connection left has stopped (lib/calls/stopped-runners.ts).
  const client = postgres(url, {
    max: 10,
    onnotice: () => {},
    // postgres.js waits before each reconnect, 3^n/100 s up to 20 s, with n counted across all
    // connections: a 5 s outage grew it to ~15 s, and every query waited for it after the server was
    // back. A refused connection costs nothing: retry within half a second, so a query during an
    // outage fails fast (503) and the first one after it reconnects.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5) * (0.5 + Math.random() / 2),
    // A server that accepts the socket but never answers holds a request this long, not 30 s.
    connect_timeout: 5,
    connection: { application_name: `${RUNNER_PREFIX}${randomUUID()}` },
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Database;
  try {
    // Several Switchboard processes may start at once on one server: migrate one at a time.
    const lock = await client.reserve();
    try {
      await lock`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
      await migratePostgres(drizzlePostgres(client), { migrationsFolder });
    } finally {
      await lock`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
      lock.release();
    }
  } catch (error) {
    await client.end({ timeout: 1 });
    throw new Error(`Could not prepare the PostgreSQL database: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { db, driver: "postgres", client, close: () => client.end({ timeout: 5 }) };
}

async function openPglite(dataDir: string | undefined, loadDataDir: Blob | File | undefined) {
  let releaseLock = () => {};
  if (dataDir) {
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    secureDataDir(dataDir);
    releaseLock = acquireDataDirLock(dataDir);
  }
  try {
    const client = new PGlite(dataDir ? path.join(dataDir, "pgdata") : undefined, { loadDataDir });
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    return {
      db,
      driver: "pglite" as const,
      client,
      dataDir,
      close: async () => {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** A transaction handle; queries that may run inside one take `Queryable`. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Queryable = Database | Transaction;
