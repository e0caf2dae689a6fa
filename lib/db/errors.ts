/** The Postgres error code anywhere in the cause chain (postgres.js or PGlite, possibly wrapped by drizzle). */
function hasPgCode(error: unknown, code: string): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === code) return true;
  }
  return false;
}

export const isUniqueViolation = (error: unknown) => hasPgCode(error, "23505");
export const isForeignKeyViolation = (error: unknown) => hasPgCode(error, "23503");
