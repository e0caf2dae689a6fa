import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { isSpanContextValid, trace } from "@opentelemetry/api";
import pino, { type Bindings, type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { readEnv } from "@/lib/env";
import { processSingleton } from "@/lib/process-singleton";
import { REDACTED } from "@/lib/upstream/transport/stderr";

/**
 * The server log: one pino logger per process, JSON lines on stdout (pretty text under `npm run
 * dev` or SWITCHBOARD_LOG_FORMAT=pretty), the level from SWITCHBOARD_LOG_LEVEL. Context — the
 * request id, workspace, principal, call id — rides on child loggers (`log.child({callId})`); the
 * trace id is added to every line written while an OpenTelemetry span is active.
 *
 * Nothing secret reaches the output: header and key fields are redacted by path, Switchboard API
 * keys by their shape, and every secret value the process has resolved (workspace secrets, the
 * values handed to a downstream server) is replaced in the finished line, whatever field or error
 * message carried it — the same rule as stderr and recorded calls. A failed query's bound values
 * are dropped whole, known or not: they may hold a value the process has not resolved yet.
 */

export type LogContext = {
  requestId?: string;
  tenantId?: string;
  principalId?: string;
  callId?: string;
  serverId?: string;
  [key: string]: unknown;
};

/** Values shorter than this would blank out ordinary words (the rule of lib/calls/scrub.ts). */
const MIN_SECRET_LENGTH = 4;
/** Bounded: the oldest values go first (a rotated secret stops appearing in output anyway). */
const MAX_SECRETS = 10_000;
const API_KEY_PATTERN = /sb_[A-Za-z0-9_-]{17,}/g;

const REDACTED_PATHS = [
  "authorization",
  "cookie",
  "apiKey",
  "password",
  "token",
  "secret",
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
  'headers["x-api-key"]',
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  "*.apiKey",
  "*.password",
  "*.token",
  "*.secret",
  // A failed query's bound values (drizzle's DrizzleQueryError): a new secret, an agent's argument.
  "err.params",
  "err.cause.params",
];

/**
 * The same values in a failed query's message ("Failed query: …\nparams: a,b") written into a
 * string field: everything after `params: ` to the end of the JSON string. Not up to the next
 * stack frame — a parameter can hold "\n    at " itself; an error object keeps its frames because
 * serializeError has already cut the exact values out of its message and stack.
 */
const QUERY_PARAMS_PATTERN = /\\nparams: (?:[^"\\]|\\.)*/g;

/**
 * pino's error serializer, with a failed query's bound values (drizzle's DrizzleQueryError, here
 * or down the cause chain) cut out of the message and the stack, where drizzle put them verbatim.
 * Cut whole, "params:" too, so the line pattern below finds nothing left to cut (a marker left in
 * their place could be forged by a parameter); `err.params` itself is redacted by path.
 */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error);
  const shown: string[] = [];
  for (let link = error, depth = 0; link instanceof Error && depth < 10; link = link.cause, depth++) {
    const params = (link as { params?: unknown }).params;
    if (Array.isArray(params) && params.length > 0) shown.push(`\nparams: ${params}`);
  }
  if (shown.length === 0) return serialized;
  const cut = (text: string | undefined) =>
    text === undefined ? text : shown.reduce((out, part) => out.split(part).join(""), text);
  return { ...serialized, message: cut(serialized.message), stack: cut(serialized.stack) };
}

type LogState = {
  logger: Logger | undefined;
  /** Secret value → the forms it takes in a JSON line (raw, and escaped when it holds " or \). */
  secrets: Map<string, string[]>;
  /** Every form of every secret, longest first: built on the first line after a change. */
  sortedForms: string[] | undefined;
  /** Set by tests (captureLogLines): where lines go instead of stdout. */
  capture: ((line: string) => void) | undefined;
};

const state = processSingleton<LogState>("Log", () => ({
  logger: undefined,
  secrets: new Map(),
  sortedForms: undefined,
  capture: undefined,
}));

/** Secret values to keep out of the log from now on (called wherever secrets are resolved). */
export function rememberLogSecrets(values: Iterable<string>): void {
  for (const value of values) {
    if (value.length < MIN_SECRET_LENGTH || state.secrets.has(value)) continue;
    const escaped = JSON.stringify(value).slice(1, -1);
    state.secrets.set(value, escaped === value ? [value] : [escaped, value]);
    state.sortedForms = undefined;
    if (state.secrets.size > MAX_SECRETS) state.secrets.delete(state.secrets.keys().next().value as string);
  }
}

/** The finished line, scrubbed: longest secrets first, so one containing another goes whole. */
export function scrubLogLine(line: string): string {
  let out = line.includes("sb_") ? line.replace(API_KEY_PATTERN, `sb_${REDACTED}`) : line;
  if (out.includes("Failed query: ")) out = out.replace(QUERY_PARAMS_PATTERN, `\\nparams: ${REDACTED}`);
  if (state.secrets.size === 0) return out;
  state.sortedForms ??= [...state.secrets.values()].flat().sort((a, b) => b.length - a.length);
  for (const form of state.sortedForms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

function rootLogger(): Logger {
  if (state.logger) return state.logger;
  let settings: { level: string; format: "json" | "pretty" };
  try {
    settings = readEnv().log;
  } catch {
    // The configuration is invalid: the start-up says so, through this logger, at the default level.
    settings = { level: "info", format: "json" };
  }
  const target: DestinationStream =
    settings.format === "pretty"
      ? pretty({ destination: 1, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,name" })
      : pino.destination({ dest: 1, sync: true });
  const destination: DestinationStream = {
    write: (line: string) => (state.capture ? state.capture(line) : target.write(line)),
  };
  state.logger = pino(
    {
      name: "switchboard",
      level: settings.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
      hooks: { streamWrite: scrubLogLine },
      mixin: contextFields,
    },
    destination,
  );
  return state.logger;
}

/** server.mjs runs each HTTP request inside this store with its id (X-Request-Id in and out). */
const requestContext = processSingleton(
  "RequestContext",
  () => new AsyncLocalStorage<{ requestId: string }>(),
);

/** The request id and the active span's ids; free when tracing is off (no span is ever active then). */
function contextFields(): Record<string, string> {
  const requestId = requestContext.getStore()?.requestId;
  const span = trace.getActiveSpan()?.spanContext();
  const traced: Record<string, string> =
    span && isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : {};
  return requestId ? { requestId, ...traced } : traced;
}

type Level = "trace" | "debug" | "info" | "warn" | "error" | "fatal";
const levels: readonly Level[] = ["trace", "debug", "info", "warn", "error", "fatal"];

/**
 * The process logger, created on first use (so the level is read after the environment is set):
 * `log.info("…")`, `log.error({ err, callId }, "…")`, `log.child({ callId })`.
 */
export const log = {
  ...(Object.fromEntries(
    levels.map((level) => [
      level,
      (...args: unknown[]) => (rootLogger()[level] as (...a: unknown[]) => void)(...args),
    ]),
  ) as Pick<Logger, Level>),
  child: (context: LogContext): Logger => rootLogger().child(context as Bindings),
  isLevelEnabled: (level: Level): boolean => rootLogger().isLevelEnabled(level),
};

/**
 * For tests: every line written from now on goes to `onLine` instead of stdout, at `level` (or the
 * configured one); the returned function restores stdout and the configured level.
 */
export function captureLogLines(onLine: (line: string) => void, level?: Level): () => void {
  const logger = rootLogger();
  const before = logger.level;
  state.capture = onLine;
  if (level) logger.level = level;
  return () => {
    state.capture = undefined;
    logger.level = before;
  };
}

/** Runs `work` as part of the request `requestId` (what server.mjs does for each HTTP request; tests). */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestContext.run({ requestId }, work);
}

/** For tests: the next use reads SWITCHBOARD_LOG_LEVEL and SWITCHBOARD_LOG_FORMAT again. */
export function resetLogger(): void {
  state.logger = undefined;
}
