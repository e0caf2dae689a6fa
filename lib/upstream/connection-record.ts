import { scrubValue } from "@/lib/calls/scrub";
import type { AppError } from "@/lib/errors";
import { rememberLogSecrets } from "@/lib/observability/log";
import { type ConnectionConfig, displayUrl, formatCommandLine } from "./connection-config";
import { ConnectionError, describeExit, type FailureContext } from "./connection-errors";
import type { Handshake } from "./handshake";
import type {
  ConnectionDiagnostics,
  ConnectionState,
  ExitInfo,
  HealthResult,
  PoolEvent,
} from "./pool-events";
import { StderrBuffer } from "./transport/stderr";
import type { OpenedTransport } from "./transports";

/**
 * What an operator needs for the post-mortem of one server, kept across reconnects: stderr,
 * last error, last exit, last health result, what the server said about itself.
 */

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type SubjectlessEvent = DistributiveOmit<PoolEvent, "serverId" | "tenantId" | "serverName" | "at">;

export class ConnectionRecord {
  private readonly stderr = new StderrBuffer();
  private secrets: string[] = [];
  private lastError: { message: string; at: Date; stderrTail?: string } | undefined;
  private lastExit: ExitInfo | undefined;
  lastHealth: HealthResult | undefined;
  handshake: Handshake = {};

  constructor(
    private readonly emit: (event: SubjectlessEvent) => void,
    private readonly now: () => Date,
  ) {}

  get error() {
    return this.lastError;
  }

  get exit(): ExitInfo | undefined {
    return this.lastExit;
  }

  /** The values resolved for the current attempt: scrubbed from everything recorded. */
  setSecrets(values: string[]): void {
    this.secrets = values;
    this.stderr.addSecrets(values);
    rememberLogSecrets(values);
  }

  /** What the current attempt handed the server: what it could echo back (catalog, server info). */
  get secretValues(): readonly string[] {
    return this.secrets;
  }

  commandLine(config: ConnectionConfig): string {
    return formatCommandLine(config, this.secrets);
  }

  processStarted(pid: number, commandLine: string): void {
    this.stderr.note(`process ${pid} started: ${commandLine}`);
    this.emit({ type: "process.started", pid, commandLine });
  }

  stderrText(text: string): void {
    const visible = this.stderr.write(text);
    if (visible) this.emit({ type: "stderr", text: visible });
  }

  note(text: string): void {
    this.stderr.note(text);
  }

  stderrTail(): string {
    return this.stderr.tail();
  }

  recordError(failure: AppError): void {
    const stderrTail = failure instanceof ConnectionError ? failure.stderrTail : undefined;
    this.lastError = { message: failure.message, at: this.now(), ...(stderrTail ? { stderrTail } : {}) };
  }

  /** Notes how a stdio process ended (once per process), in the log and as an event. */
  recordExit(opened: OpenedTransport | undefined): void {
    if (opened?.kind !== "stdio" || !opened.transport.exit) return;
    const { code, signal, at } = opened.transport.exit;
    const exit: ExitInfo = { code, signal, at: at.toISOString() };
    if (this.lastExit?.at === exit.at) return;
    this.lastExit = exit;
    this.stderr.flush();
    this.stderr.note(`process ${opened.transport.pid ?? "?"} ${describeExit(exit)}`);
    this.emit({ type: "process.exited", pid: opened.transport.pid, exit, stderrTail: this.stderr.tail() });
  }

  failureContext(config: ConnectionConfig, opened: OpenedTransport | undefined): FailureContext {
    return { config, opened, stderrTail: this.stderr.tail(), secrets: this.secrets };
  }

  diagnostics(params: {
    config: ConnectionConfig;
    state: ConnectionState;
    opened: OpenedTransport | undefined;
    connectedAt: Date | undefined;
    recentFailures: number;
    nextRetryAt: Date | undefined;
  }): ConnectionDiagnostics {
    const { config, opened } = params;
    const pid = opened?.kind === "stdio" ? opened.transport.pid : undefined;
    const { instructions: _, ...handshake } = this.handshake;
    return {
      serverId: config.id,
      serverName: config.name,
      transport: config.transport,
      state: params.state,
      ...(config.transport === "stdio"
        ? { commandLine: this.commandLine(config) }
        : { url: displayUrl(config.url) }),
      ...(pid !== undefined ? { pid } : {}),
      ...(params.connectedAt ? { connectedAt: params.connectedAt.toISOString() } : {}),
      // The server's own words (its info, capabilities): it may repeat what it was given.
      ...scrubValue(handshake, this.secrets),
      ...(this.lastError ? { lastError: { ...this.lastError, at: this.lastError.at.toISOString() } } : {}),
      ...(this.lastExit ? { exit: this.lastExit } : {}),
      stderr: this.stderr.text(),
      recentFailures: params.recentFailures,
      ...(params.nextRetryAt ? { nextRetryAt: params.nextRetryAt.toISOString() } : {}),
      ...(this.lastHealth ? { lastHealth: this.lastHealth } : {}),
    };
  }
}
