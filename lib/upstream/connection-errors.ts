import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AppError, type ErrorCode as AppErrorCode, isAppError } from "@/lib/errors";
import type { ConnectionConfig } from "./connection-config";
import { ConnectTimeoutError } from "./handshake";
import type { ExitInfo } from "./pool-events";
import { scrubSecrets } from "./transport/stderr";
import { findRefusal, type OpenedTransport } from "./transports";

/**
 * Turns whatever a failed connect or request threw into one sentence an operator can act on:
 * which server, what happened (exit code, HTTP status and URL, timeout), and the end of its
 * stderr. The full stderr tail travels on the error for the diagnostics view.
 */

export class ConnectionError extends AppError {
  readonly serverId: string;
  readonly stderrTail: string | undefined;
  readonly exit: ExitInfo | undefined;

  constructor(
    code: AppErrorCode,
    message: string,
    details: { serverId: string; stderrTail?: string; exit?: ExitInfo; cause?: unknown },
  ) {
    super(code, message, { cause: details.cause });
    this.name = "ConnectionError";
    this.serverId = details.serverId;
    this.stderrTail = details.stderrTail || undefined;
    this.exit = details.exit;
  }
}

export type FailureContext = {
  config: ConnectionConfig;
  opened: OpenedTransport | undefined;
  /** The last ~4000 characters of (scrubbed) stderr; "" for HTTP servers. */
  stderrTail: string;
  /** stderr as it was when the failure was noticed (before we stopped the process), for the message. */
  hintTail?: string;
  secrets: readonly string[];
};

export function describeConnectFailure(ctx: FailureContext, error: unknown): AppError {
  const name = `"${ctx.config.name}"`;
  const exit = exitOf(ctx.opened);
  const make = (code: AppErrorCode, message: string) =>
    new ConnectionError(code, scrubSecrets(message, ctx.secrets), {
      serverId: ctx.config.id,
      stderrTail: ctx.stderrTail,
      exit,
      cause: error,
    });

  if (isAppError(error))
    return make(
      error.code,
      error.message.startsWith("Cannot connect")
        ? error.message
        : `Cannot connect to ${name}: ${error.message}`,
    );
  // Before the exit check: a process killed because it timed out has exited too.
  if (error instanceof ConnectTimeoutError || isMcpCode(error, ErrorCode.RequestTimeout)) {
    return make(
      "timeout",
      `${name} did not complete the MCP handshake within ${formatMs(ctx.config.connectTimeoutMs)} (connect timeout)${stderrHint(ctx, ".")}`,
    );
  }
  if (exit) {
    return make(
      "upstream_unavailable",
      `${name} ${describeExit(exit)} before completing the MCP handshake${stderrHint(ctx, ".")}`,
    );
  }
  // Before the HTTP trace: its last failure may be older than the refusal that ended this attempt.
  const refusal = findRefusal(error);
  if (refusal) return make("policy_denied", `Cannot connect to ${name}: ${refusal.message}`);
  const http = ctx.opened?.kind === "http" ? ctx.opened.trace.lastFailure : undefined;
  if (http) return make("upstream_unavailable", `Cannot connect to ${name}: ${describeHttpStatus(http)}`);
  return make("upstream_unavailable", `Cannot connect to ${name}: ${messageOf(error)}${stderrHint(ctx, "")}`);
}

/** `what` names the request, e.g. `tools/call "echo"`. */
export function describeRequestFailure(
  ctx: FailureContext,
  error: unknown,
  what: string,
  timeoutMs: number,
): AppError {
  const name = `"${ctx.config.name}"`;
  const exit = exitOf(ctx.opened);
  const make = (code: AppErrorCode, message: string) =>
    new ConnectionError(code, scrubSecrets(message, ctx.secrets), {
      serverId: ctx.config.id,
      stderrTail: ctx.stderrTail,
      exit,
      cause: error,
    });

  if (isAppError(error)) return error;
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout)
      return make("timeout", `${name} did not answer ${what} within ${formatMs(timeoutMs)}.`);
    if (error.code === ErrorCode.ConnectionClosed) {
      return make(
        "upstream_unavailable",
        exit
          ? `${name} ${describeExit(exit)} during ${what}${stderrHint(ctx, ".")}`
          : `The connection to ${name} closed during ${what}.`,
      );
    }
    return make("upstream_error", `${name} answered ${what} with an error: ${mcpMessage(error)}`);
  }
  const refusal = findRefusal(error);
  if (refusal) return make("policy_denied", `${what} to ${name} failed: ${refusal.message}`);
  const http = ctx.opened?.kind === "http" ? ctx.opened.trace.lastFailure : undefined;
  const detail = http ? describeHttpStatus(http) : messageOf(error);
  return make("upstream_unavailable", `${what} to ${name} failed: ${detail}`);
}

/** A failure of the channel itself (not an answer from the server): the connection must be rebuilt. */
export function isTransportFailure(error: unknown): boolean {
  return !(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed;
}

export function describeHttpStatus(f: {
  method: string;
  url: string;
  status: number;
  statusText: string;
  asksForOAuth?: boolean;
}): string {
  const head = `${f.method} ${f.url} answered ${f.status}${f.statusText ? ` ${f.statusText}` : ""}`;
  if (f.asksForOAuth)
    return `${head}: the server asks for OAuth (its WWW-Authenticate names protected resource metadata). Edit the server, pick OAuth as its authentication, then click Connect.`;
  if (f.status === 401)
    return `${head}: the credentials are missing or were refused (check the server's auth settings).`;
  if (f.status === 403) return `${head}: the credentials are not allowed to use this endpoint.`;
  if (f.status === 404)
    return `${head}: check the URL path (streamable HTTP servers usually serve /mcp, SSE servers /sse).`;
  if (f.status === 405)
    return `${head}: the endpoint does not accept this method (is the transport right — streamable HTTP or SSE?).`;
  if (f.status >= 500) return `${head}: the server failed on its side.`;
  return `${head}.`;
}

export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

function exitOf(opened: OpenedTransport | undefined): ExitInfo | undefined {
  const exit = opened?.kind === "stdio" ? opened.transport.exit : undefined;
  return exit && { code: exit.code, signal: exit.signal, at: exit.at.toISOString() };
}

/** `: <last stderr line>` — usually the line that says what went wrong — or `otherwise`. */
function stderrHint(ctx: FailureContext, otherwise: string): string {
  const line = (ctx.hintTail ?? ctx.stderrTail)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("[switchboard]"))
    .at(-1);
  if (!line) return otherwise;
  return `: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`;
}

function isMcpCode(error: unknown, code: ErrorCode): boolean {
  return error instanceof McpError && error.code === code;
}

function mcpMessage(error: McpError): string {
  return `${error.message.replace(/^MCP error -?\d+: /, "")} (JSON-RPC ${error.code})`;
}

function messageOf(error: unknown): string {
  if (error instanceof McpError) return mcpMessage(error);
  return error instanceof Error ? error.message : String(error);
}
