import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { injectTraceHeaders, isTracing } from "@/lib/observability/traces";
import { type ConnectionConfig, displayUrl, type ResolvedConnection } from "./connection-config";
import { createPinnedFetch, type ResolveHost } from "./transport/pinned-fetch";
import { ProcessGroupStdioTransport } from "./transport/stdio";
import { childBaseEnvironment, stdioChildIdentity } from "./transport/stdio-identity";
import { authenticatedFetch, type UpstreamAuth } from "./upstream-auth";

/** Builds the transport for one connection attempt. The only place transports are constructed. */

export type HttpTrace = {
  /** The last HTTP answer that was not 2xx, for an error message that names URL and status. */
  lastFailure?: { method: string; url: string; status: number; statusText: string; asksForOAuth?: boolean };
};

export type OpenedTransport =
  | { kind: "stdio"; transport: ProcessGroupStdioTransport }
  | { kind: "http"; transport: Transport; trace: HttpTrace };

export type TransportHooks = {
  maxMessageBytes: number;
  killGraceMs: number;
  onSpawn: (pid: number) => void;
  onStderr: (text: string) => void;
  onNotice: (text: string) => void;
};

/** What the policy check before a connect allowed, for the transport to hold to. */
export type TransportPermit = {
  /** The program to run (resolved on Switchboard's PATH), so a server's own env.PATH can never swap it. */
  programPath?: string;
  /** Resolves the server's host for every TCP connection, refusing addresses the egress policy refuses. */
  resolveHost?: ResolveHost;
  /** An OAuth server's token keeper: the transport sends its access token and renews on a 401. */
  auth?: UpstreamAuth;
};

export function createTransport(
  config: ConnectionConfig,
  resolved: ResolvedConnection,
  hooks: TransportHooks,
  permit: TransportPermit = {},
): OpenedTransport {
  const { programPath } = permit;
  if (config.transport === "stdio") {
    const identity = stdioChildIdentity();
    return {
      kind: "stdio",
      transport: new ProcessGroupStdioTransport({
        command: programPath ?? config.programPath ?? config.command ?? "",
        displayCommand: config.command ?? "",
        args: config.args,
        cwd: config.cwd ?? undefined,
        // A server gets a minimal base (PATH, HOME, …) plus what was configured for it — never
        // Switchboard's own environment, which holds the database URL and the secret key.
        env: { ...childBaseEnvironment(getDefaultEnvironment(), identity), ...resolved.env },
        identity,
        ...hooks,
      }),
    };
  }
  const trace: HttpTrace = {};
  const url = new URL(config.url ?? "");
  const pinned = createPinnedFetch(permit.resolveHost);
  const options = {
    requestInit: { headers: resolved.headers },
    fetch: tracingFetch(trace, permit.auth ? authenticatedFetch(pinned.fetch, permit.auth) : pinned.fetch),
    ...(permit.auth ? { authProvider: permit.auth.provider } : {}),
    // Said, not assumed: pinned-fetch refuses other origins whatever this says.
    redirectPolicy: "same-origin" as const,
  };
  const transport =
    config.transport === "sse"
      ? new SSEClientTransport(url, options)
      : new StreamableHTTPClientTransport(url, options);
  // The connection's sockets go with it.
  const closeTransport = transport.close.bind(transport);
  transport.close = async () => {
    try {
      await closeTransport();
    } finally {
      await pinned.close();
    }
  };
  return { kind: "http", transport, trace };
}

/** The request with the active span's traceparent: the downstream server continues the trace. */
function withTraceHeaders(init: RequestInit | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  injectTraceHeaders(headers);
  return { ...init, headers };
}

/** fetch that records failed answers and turns network errors into sentences. */
function tracingFetch(trace: HttpTrace, fetch: FetchLike): FetchLike {
  return async (url, init) => {
    try {
      const response = await fetch(url, isTracing() ? withTraceHeaders(init) : init);
      if (!response.ok) {
        trace.lastFailure = {
          method: init?.method ?? "GET",
          url: displayUrl(String(url)),
          status: response.status,
          statusText: response.statusText,
          // MCP authorization: a 401 naming protected resource metadata (RFC 9728) means OAuth.
          asksForOAuth:
            response.status === 401 &&
            /^\s*bearer\b[\s\S]*resource_metadata=/i.test(response.headers.get("www-authenticate") ?? ""),
        };
      }
      return response;
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      throw new Error(describeNetworkError(error, String(url)), { cause: error });
    }
  };
}

export function describeNetworkError(error: unknown, url: string): string {
  // Refusals of our own (egress on a DNS answer, a redirect elsewhere) already say it all.
  const refusal = findRefusal(error);
  if (refusal) return refusal.message;
  const code = networkErrorCode(error);
  const target = (() => {
    try {
      const u = new URL(url);
      return `${u.hostname}:${u.port || (u.protocol === "https:" ? 443 : 80)}`;
    } catch {
      return url;
    }
  })();
  switch (code) {
    case "ECONNREFUSED":
      return `connection refused by ${target} (ECONNREFUSED): nothing is listening there`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `host not found: ${target} (${code})`;
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `timed out connecting to ${target} (${code})`;
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return `connection to ${target} was reset (${code})`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${target} is unreachable (${code})`;
  }
  if (code && /CERT|TLS|SSL/.test(code)) return `TLS certificate problem with ${target} (${code})`;
  return `request to ${displayUrl(url)} failed: ${(error as Error)?.message ?? String(error)}${code ? ` (${code})` : ""}`;
}

function networkErrorCode(error: unknown): string | undefined {
  // undici: TypeError("fetch failed") with the system error as cause, sometimes an AggregateError.
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const e = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof e.code === "string") return e.code;
    current = e.cause ?? e.errors?.[0];
  }
  return undefined;
}

/** A refusal of ours (egress on a DNS answer, a redirect elsewhere) somewhere in an error's causes. */
export function findRefusal(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const e = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (e.code === "EGRESS_REFUSED" || e.code === "REDIRECT_REFUSED") return current as Error;
    current = e.cause ?? e.errors?.[0];
  }
  return undefined;
}
