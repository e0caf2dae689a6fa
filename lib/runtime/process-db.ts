import "server-only";
import type { Tenant } from "@/db/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { secureDataDir } from "@/lib/db/data-dir-permissions";
import { readEnv } from "@/lib/env";
import { AppError, databaseUnavailable } from "@/lib/errors";
import { log } from "@/lib/observability/log";
import { type BootstrapOptions, bootstrapDatabase } from "@/lib/runtime/bootstrap";

export type ProcessDatabase = DatabaseHandle & { defaultTenant: Tenant };

/**
 * The process's one database handle. It lives on globalThis so Next.js dev reloads and the
 * separate route bundles share it instead of opening the PGlite folder twice.
 */
const state = globalThis as typeof globalThis & { __switchboardDb?: Promise<ProcessDatabase> };

export function getDatabase(): Promise<ProcessDatabase> {
  if (!state.__switchboardDb) {
    const env = readEnv();
    // With PostgreSQL the data folder still holds the generated secret key: private all the same.
    if (env.databaseUrl) secureDataDir(env.dataDir);
    state.__switchboardDb = openDatabase(
      env.databaseUrl
        ? { driver: "postgres", url: env.databaseUrl }
        : { driver: "pglite", dataDir: env.dataDir },
    )
      .then((handle) =>
        withBootstrap(handle, { seedDemoServers: env.seedDemoServers, bootstrapApiKey: env.bootstrapApiKey }),
      )
      .catch((error: unknown) => {
        // The detail (an address, a path, a lock holder's pid) is for the operator's log; a caller
        // gets a 503 that says what is wrong without it.
        log.error(`database not ready: ${(error as Error)?.message ?? String(error)}`);
        throw databaseUnavailable(error);
      });
    // A failed open must not be cached forever: the next request tries again.
    state.__switchboardDb.catch(() => {
      state.__switchboardDb = undefined;
    });
  }
  return state.__switchboardDb;
}

/** The handle if the database is open (or opening), without opening it: readiness probes must not. */
export function peekDatabase(): Promise<ProcessDatabase> | undefined {
  return state.__switchboardDb;
}

/**
 * Shutdown's last step: closes the database if it was opened, after `beforeClose` (its event relay
 * stops with it, a PGlite folder's lock is released). Nothing opens it again: later callers get a 503.
 */
export async function closeDatabase(beforeClose?: (handle: ProcessDatabase) => Promise<void>): Promise<void> {
  const opened = state.__switchboardDb;
  const closed = Promise.reject(
    new AppError("upstream_unavailable", "This Switchboard process has shut down its database."),
  );
  closed.catch(() => {});
  state.__switchboardDb = closed;
  const handle = await opened?.catch(() => undefined);
  if (!handle) return;
  try {
    await beforeClose?.(handle);
  } finally {
    await handle.close();
  }
}

/** Tests point the process at a database they opened themselves. */
export async function setProcessDatabase(
  handle: DatabaseHandle,
  options: BootstrapOptions = { seedDemoServers: false },
) {
  const ready = await withBootstrap(handle, options);
  state.__switchboardDb = Promise.resolve(ready);
  return ready;
}

async function withBootstrap(handle: DatabaseHandle, options: BootstrapOptions): Promise<ProcessDatabase> {
  try {
    const defaultTenant = await bootstrapDatabase(handle.db, options);
    return Object.assign(handle, { defaultTenant });
  } catch (error) {
    await handle.close();
    throw error;
  }
}
