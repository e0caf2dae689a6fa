/** The Postgres error code anywhere in the cause chain (postgres.js or PGlite, possibly wrapped by drizzle). */
function hasPgCode(error: unknown, code: string): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === code) return true;
  }
  return false;
}

export const isUniqueViolation = (error: unknown) => hasPgCode(error, "23505");
export const isForeignKeyViolation = (error: unknown) => hasPgCode(error, "23503");
/**
 * Text PostgreSQL cannot store, in a parameter (22021: a NUL byte) or in JSON (22P05: `\u0000`):
 * the caller's input, never the server's fault.
 */
export const isUnstorableText = (error: unknown) => hasPgCode(error, "22021") || hasPgCode(error, "22P05");

/**
 * Codes that say the database cannot be reached right now, not that the statement was wrong:
 * socket errors, postgres.js's own connection errors, SQLSTATE class 08 (connection exception),
 * 57P01–57P03 (the server is shutting down, crashed or still starting) and 53300 (no connection
 * slot left). A request that meets one is answered 503 "database unavailable", never 500.
 */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/** The code (a socket errno, a postgres.js code or a SQLSTATE) that makes `error` an outage, if it is one. */
export function databaseUnavailableCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code !== "string") continue;
    if (UNREACHABLE_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export const isDatabaseUnavailable = (error: unknown) => databaseUnavailableCode(error) !== undefined;

/**
 * How often work that waits for the database tries again (start-up, writes of the pool's reports):
 * from half a second, doubling, at most every 5 s — a database that is back is found quickly.
 */
export const DATABASE_RETRY_BACKOFF = { baseMs: 500, maxMs: 5_000 };
