import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Implementation } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/observability/log";
import type { ConnectionConfig, ValueResolver } from "./connection-config";
import type { ConnectionDiagnostics, ConnectionState, HealthResult, PoolEvent } from "./pool-events";
import { type CallToolOptions, type ConnectionDeps, ServerConnection } from "./server-connection";
import { defaultSupervisionPolicy, type SupervisionPolicy } from "./supervisor";

/**
 * The connection pool: the only owner of MCP clients and transports. One persistent client per
 * registered server, shared by every caller; each supervised by a ServerConnection. Knows
 * nothing of the database: it is told the configurations (upsert/remove) and reports what
 * happens through onEvent, which the runtime persists and publishes.
 */

export type ConnectionPoolOptions = {
  resolveValue: ValueResolver;
  /** Runs before every connect; throws (AppError "policy_denied") to refuse. */
  checkPolicy?: ConnectionDeps["checkPolicy"];
  /** For OAuth servers: whoever keeps their tokens. */
  upstreamAuth?: ConnectionDeps["upstreamAuth"];
  /** Who answers a server's form elicitation when the call's caller cannot (lib/elicitations). */
  askOperator?: ConnectionDeps["askOperator"];
  /** Called synchronously; an exception thrown here is logged, never breaks the pool. */
  onEvent?: (event: PoolEvent) => void;
  clientInfo?: Implementation;
  now?: () => Date;
  random?: () => number;
  supervision?: Partial<SupervisionPolicy>;
  /** Largest single stdio message accepted (default 10 MiB, like the SDK). */
  maxMessageBytes?: number;
  /** Between SIGTERM and SIGKILL when stopping a stdio server (default 2 s). */
  killGraceMs?: number;
};

export type { CallToolOptions };

export class ConnectionPool {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly deps: ConnectionDeps;
  private closed = false;

  constructor(options: ConnectionPoolOptions) {
    const onEvent = options.onEvent;
    this.deps = {
      resolveValue: options.resolveValue,
      checkPolicy: options.checkPolicy,
      upstreamAuth: options.upstreamAuth,
      askOperator: options.askOperator,
      emit: (event) => {
        // A server's stderr (already scrubbed of its secrets) into the server log, for the log pipeline.
        if (event.type === "stderr")
          log.debug(
            { serverId: event.serverId, server: event.serverName, stream: "stderr" },
            event.text.trimEnd(),
          );
        try {
          onEvent?.(event);
        } catch (error) {
          log.error({ err: error }, "pool event listener failed");
        }
      },
      clientInfo: options.clientInfo ?? { name: "switchboard", version: "0.1.0" },
      supervision: { ...defaultSupervisionPolicy, ...options.supervision },
      maxMessageBytes: options.maxMessageBytes ?? 10 * 1024 * 1024,
      killGraceMs: options.killGraceMs ?? 2000,
      now: options.now ?? (() => new Date()),
      random: options.random ?? Math.random,
    };
  }

  /** Adds a server (connecting in the background if enabled) or applies a changed configuration. */
  async upsert(config: ConnectionConfig): Promise<void> {
    if (this.closed) throw new AppError("internal", "The connection pool is closed.");
    const existing = this.connections.get(config.id);
    if (existing) return existing.update(config);
    const connection = new ServerConnection(config, this.deps);
    this.connections.set(config.id, connection);
    connection.start();
  }

  /** Disconnects and forgets a server; its process group is gone when this resolves. */
  async remove(id: string): Promise<void> {
    const connection = this.connections.get(id);
    this.connections.delete(id);
    await connection?.stop();
  }

  /** The shared, connected client (connecting first if needed; concurrent callers share one attempt). */
  async getClient(id: string): Promise<Client> {
    return this.get(id).getClient();
  }

  /** tools/call on the pooled connection, with the server's call timeout and the caller's signal. */
  async callTool(
    id: string,
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    return this.get(id).callTool(name, args, options);
  }

  /** Listens for the server's notifications/resources/updated; returns the function that stops. */
  onResourceUpdated(id: string, listener: (uri: string) => void): () => void {
    return this.get(id).onResourceUpdated(listener);
  }

  /** Drops the connection and connects again now; also leaves crash-loop. Rejects if that fails. */
  async reconnect(id: string): Promise<void> {
    await this.get(id).reconnect();
  }

  async healthCheck(id: string): Promise<HealthResult> {
    return this.get(id).healthCheck();
  }

  diagnostics(id: string): ConnectionDiagnostics {
    return this.get(id).diagnostics();
  }

  /** The secret values a server's connection was handed; none when the pool does not know it. */
  secretValues(id: string): readonly string[] {
    return this.connections.get(id)?.secretValues() ?? [];
  }

  /** The state of a server, or undefined when the pool does not know it. */
  state(id: string): ConnectionState | undefined {
    return this.connections.get(id)?.state;
  }

  ids(): string[] {
    return [...this.connections.keys()];
  }

  /** Shutdown: every connection closed, every timer cancelled, every child process gone. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.stop()));
  }

  private get(id: string): ServerConnection {
    const connection = this.connections.get(id);
    if (!connection) throw new AppError("not_found", `The connection pool has no server with id "${id}".`);
    return connection;
  }
}
