import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";

/** Types the pool shares with its callers: states, events, health results, diagnostics. */

export const connectionStates = [
  "disconnected",
  "connecting",
  "ready",
  "degraded",
  "crash-loop",
  /** An OAuth server without a token it accepts: no retries, it waits for an admin's Connect. */
  "needs-authorization",
  "disabled",
] as const;
export type ConnectionState = (typeof connectionStates)[number];

export type HealthResult = {
  ok: boolean;
  /** Round trip of the probe; null when no probe could be sent (not connected). */
  latencyMs: number | null;
  error?: string;
  /** ISO-8601. */
  checkedAt: string;
  /** ping, or tools/list for servers that don't implement ping (it is optional in MCP). */
  probe?: "ping" | "tools/list";
};

/** A tools/call in flight on a connection, as named by whoever asked (CallToolOptions.callId). */
export type RunningCall = { callId: string; tool: string; startedAt: string };

export type ServerInfo = { name: string; version: string; title?: string };
export type ExitInfo = { code: number | null; signal: string | null; at: string };

type Subject = { serverId: string; tenantId: string; serverName: string; at: string };

export type PoolEvent =
  | (Subject & { type: "state.changed"; from: ConnectionState; to: ConnectionState; error?: string })
  | (Subject & {
      type: "connected";
      serverInfo: ServerInfo | undefined;
      capabilities: ServerCapabilities | undefined;
      protocolVersion: string | undefined;
      instructions: string | undefined;
      /** From the start of the attempt (spawn or first request) to the end of the handshake. */
      setupMs: number;
    })
  /** stdio: a server process started; `pid` is also its process group id. */
  | (Subject & { type: "process.started"; pid: number; commandLine: string })
  | (Subject & { type: "process.exited"; pid: number | undefined; exit: ExitInfo; stderrTail: string })
  /** stdio: the process exited on its own while these calls ran on it — one of them may have crashed it. */
  | (Subject & {
      type: "crashed.during_calls";
      pid: number | undefined;
      exit: ExitInfo;
      calls: RunningCall[];
    })
  | (Subject & { type: "health.checked"; result: HealthResult })
  /** The server said its tools/resources/prompts changed: the catalog should list them again. */
  | (Subject & { type: "list.changed"; list: "tools" | "resources" | "prompts" })
  /** Scrubbed stderr text as it arrives (stdio only). */
  | (Subject & { type: "stderr"; text: string });

export type PoolEventType = PoolEvent["type"];

export type ConnectionDiagnostics = {
  serverId: string;
  serverName: string;
  transport: "stdio" | "streamable-http" | "sse";
  state: ConnectionState;
  /** stdio: the spawn command with references and resolved secrets shown as [redacted]. */
  commandLine?: string;
  /** HTTP: the URL without query or fragment. */
  url?: string;
  /** stdio: the process (and process group) id of the running server. */
  pid?: number;
  connectedAt?: string;
  serverInfo?: ServerInfo;
  capabilities?: ServerCapabilities;
  protocolVersion?: string;
  lastError?: { message: string; at: string; stderrTail?: string };
  /** How the last stdio process ended. */
  exit?: ExitInfo;
  /** The scrubbed stderr ring buffer (up to 64 KiB), across restarts. */
  stderr: string;
  /** Failures inside the crash-loop window, and when the next attempt is due. */
  recentFailures: number;
  nextRetryAt?: string;
  lastHealth?: HealthResult;
};
