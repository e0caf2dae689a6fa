import { databaseUnavailableCode, isDatabaseUnavailable, isUnstorableText } from "@/lib/db/errors";
import { log } from "@/lib/observability/log";

/** The one error type services throw. Each boundary (HTTP, server action, MCP) converts it once. */
export const errorStatus = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  policy_denied: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  approval_required: 202,
  upstream_error: 502,
  upstream_unavailable: 503,
  database_unavailable: 503,
  timeout: 504,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export type FieldErrors = Record<string, string[]>;

/**
 * Marks an AppError across copies of this module. Next.js bundles a module once per entry that
 * imports it, so an AppError thrown by the runtime's copy (the connection pool, started by
 * instrumentation) reaches a route handler whose copy has another AppError class: `instanceof`
 * alone would call a call's timeout an upstream error, or a 404 a 500.
 */
const BRAND = Symbol.for("switchboard.AppError");

export class AppError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;
  readonly fieldErrors: FieldErrors | undefined;
  /** For `rate_limited` and `database_unavailable`: when trying again can succeed (also sent as Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { fieldErrors?: FieldErrors; cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, { cause: options?.cause });
    this.name = "AppError";
    this.code = code;
    this.fieldErrors = options?.fieldErrors;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  /** `instanceof AppError` holds for an AppError of any copy of this module (subclasses: as usual). */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about
    if (this !== AppError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export const notFound = (what: string) => new AppError("not_found", `${what} was not found.`);

export type ErrorBody = {
  code: ErrorCode;
  message: string;
  fieldErrors?: FieldErrors;
  retryAfterSeconds?: number;
};

/** One wording wherever the database is out of reach: what is wrong and what to do, never the address. */
export function databaseUnavailable(cause?: unknown): AppError {
  return new AppError(
    "database_unavailable",
    "Switchboard's database is not reachable right now (the reason is in the server log). Try again in a few seconds.",
    { cause, retryAfterSeconds: 2 },
  );
}

let lastOutageLog = 0;

/** One line per half minute while the database is out of reach: enough to see it, not a flood. */
function logOutage(error: unknown): void {
  const now = Date.now();
  if (now - lastOutageLog < 30_000) return;
  lastOutageLog = now;
  log.error(
    `the database is not reachable (${databaseUnavailableCode(error)}): requests are answered 503 until it is back`,
  );
}

/**
 * Any thrown value → an AppError; unexpected ones are logged and masked (they may hold paths or SQL).
 * A lost database connection is an outage, not a bug: 503 `database_unavailable`, so clients retry.
 * Text the database cannot hold (NUL) is the caller's input: 400 `validation`, wherever it is sent.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isDatabaseUnavailable(error)) {
    logOutage(error);
    return databaseUnavailable(error);
  }
  if (isUnstorableText(error))
    return new AppError(
      "validation",
      "A value holds a NUL character, which cannot be stored or looked up. Remove it and try again.",
      { cause: error },
    );
  log.error({ err: error }, "unexpected error");
  return new AppError("internal", "Something went wrong on the server. The error has been logged.");
}

export function toErrorBody(error: AppError): ErrorBody {
  return {
    code: error.code,
    message: error.message,
    ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}
