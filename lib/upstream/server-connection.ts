import { performance } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CallToolResult,
  ErrorCode,
  type Implementation,
  McpError,
  type Progress,
  type ProgressToken,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/errors";
import { traceMeta } from "@/lib/observability/traces";
import { boundRequests } from "./bounded-requests";
import { CallClock } from "./call-clock";
import { callerOf, InFlightCalls, type OperatorTarget, type RelayedRequest } from "./caller-relay";
import {
  type ConnectionConfig,
  connectionIdentity,
  resolveConnection,
  type ValueResolver,
} from "./connection-config";
import {
  ConnectionError,
  describeConnectFailure,
  describeExit,
  describeRequestFailure,
  isTransportFailure,
} from "./connection-errors";
import { ConnectionRecord, type SubjectlessEvent } from "./connection-record";
import { ConnectTimeoutError, performHandshake } from "./handshake";
import { type ProbeMethod, probeServer } from "./health";
import type {
  ConnectionDiagnostics,
  ConnectionState,
  HealthResult,
  PoolEvent,
  RunningCall,
} from "./pool-events";
import { RetrySchedule, type SupervisionPolicy } from "./supervisor";
import { createTransport, type OpenedTransport, type TransportPermit } from "./transports";
import { isAuthorizationRequired, isScopeRequired, type UpstreamAuth } from "./upstream-auth";

/**
 * One registered server's connection and its supervision: connect (single flight), notice the
 * end of the connection, retry with backoff, fall into crash-loop, probe health. The pool holds
 * one per server id; what happened is kept in a ConnectionRecord for the diagnostics.
 */

export type ConnectionDeps = {
  resolveValue: ValueResolver;
  /**
   * The policy check before every connect; may name the program to run (resolved on Switchboard's
   * PATH) and the resolver every HTTP request of the connection must go through.
   */
  checkPolicy?: (config: ConnectionConfig) => Promise<TransportPermit | undefined>;
  /** For a server whose auth is OAuth: whoever keeps its tokens (lib/oauth). */
  upstreamAuth?: (config: ConnectionConfig) => UpstreamAuth | undefined;
  emit: (event: PoolEvent) => void;
  /**
   * Puts a server's form elicitation to an operator when the caller cannot answer it
   * (caller-relay; lib/elicitations); resolves with the ElicitResult to return. Without it, refused.
   */
  askOperator?: (question: OperatorQuestion, signal: AbortSignal) => Promise<Record<string, unknown>>;
  clientInfo: Implementation;
  supervision: SupervisionPolicy;
  maxMessageBytes: number;
  killGraceMs: number;
  now: () => Date;
  random: () => number;
};

export type CallToolOptions = {
  /** Also identifies the caller, for relaying the server's requests and logs to it (caller-relay). */
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Overrides the server's callTimeoutMs for this call. */
  timeoutMs?: number;
  /** The call's record id: named in the crash attribution if the server's process exits meanwhile. */
  callId?: string;
};

/** A server's elicitation/create, for an operator to answer on behalf of the call's caller. */
export type OperatorQuestion = {
  callId: string;
  serverId: string;
  serverName: string;
  /** The request's params as the SDK validated them: message, requestedSchema. */
  params: Record<string, unknown>;
};

// The SDK's own request timeout is off for tools/call (CallClock keeps it): its largest timer.
const NO_SDK_TIMEOUT_MS = 2_147_483_647;

type Live = { client: Client; opened: OpenedTransport; connectedAt: Date; probe: ProbeMethod };

// Health probes answer within this bound even when calls may take longer.
const MAX_PROBE_TIMEOUT_MS = 10_000;

export class ServerConnection {
  private cfg: ConnectionConfig;
  private current: ConnectionState = "disconnected";
  private live: Live | undefined;
  private opening: OpenedTransport | undefined;
  private connecting: Promise<Client> | undefined;
  // Bumped whenever a connection or attempt is abandoned: what older ones report is ignored.
  private generation = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private nextRetryAt: Date | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private probeFailures = 0;
  private stopped = false;
  // Connections lost earlier whose processes may still be on their way out.
  private readonly retiring = new Set<Promise<void>>();
  // Calls running on this connection, so what the server sends back finds its caller.
  private readonly inFlight = new InFlightCalls();
  // Calls running on this connection by record id: who was there when the process died.
  private readonly runningCalls = new Set<RunningCall>();
  private readonly resourceListeners = new Set<(uri: string) => void>();
  private readonly progressListeners = new Map<ProgressToken, (progress: Progress) => void>();
  private progressTokens = 0;
  private readonly schedule: RetrySchedule;
  private readonly record: ConnectionRecord;

  constructor(
    config: ConnectionConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.cfg = config;
    this.schedule = new RetrySchedule(deps.supervision, deps.random);
    this.record = new ConnectionRecord((event) => this.emit(event), deps.now);
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Begins supervision: connects in the background (a broken server never blocks the caller). */
  start(): void {
    if (!this.cfg.enabled) this.setState("disabled");
    else void this.connect().catch(() => {});
  }

  /** A new configuration: reconnect only if something about reaching the server changed. */
  async update(config: ConnectionConfig): Promise<void> {
    const changed =
      connectionIdentity(config) !== connectionIdentity(this.cfg) || config.enabled !== this.cfg.enabled;
    this.cfg = config;
    if (!changed) {
      if (this.live) this.scheduleHealth();
      return;
    }
    this.schedule.reset();
    await this.drop();
    this.start();
  }

  async getClient(): Promise<Client> {
    if (this.stopped)
      throw new AppError("upstream_unavailable", `"${this.cfg.name}" is no longer registered.`);
    if (this.live) return this.live.client;
    if (this.connecting) return this.connecting;
    if (this.current === "disabled")
      throw new AppError("upstream_unavailable", `"${this.cfg.name}" is disabled.`);
    // Waiting for a person: another attempt would only be refused again.
    if (this.current === "needs-authorization") throw this.authorizationError();
    // Waiting out a backoff (or crash-loop): fail fast rather than add an attempt per caller.
    if (this.retryTimer) throw this.unavailableError();
    return this.connect();
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    options.signal?.throwIfAborted();
    const client = await this.getClient();
    const live = this.live;
    const timeoutMs = options.timeoutMs ?? this.cfg.callTimeoutMs;
    const clock = new CallClock(timeoutMs);
    // Aborted when the call ends however it ends: an operator's question for it is withdrawn.
    const ended = new AbortController();
    const target: OperatorTarget | undefined = options.callId
      ? {
          callId: options.callId,
          hold: () => clock.hold(),
          signal: options.signal ? AbortSignal.any([options.signal, ended.signal]) : ended.signal,
        }
      : undefined;
    const leave = this.inFlight.enter(callerOf(options.signal), target);
    const running: RunningCall | undefined = options.callId
      ? { callId: options.callId, tool: name, startedAt: this.deps.now().toISOString() }
      : undefined;
    if (running) this.runningCalls.add(running);
    // Our own progress token, not the SDK's onprogress: see tapProgress (handshake).
    const progressToken = options.onProgress ? `switchboard-${++this.progressTokens}` : undefined;
    if (progressToken && options.onProgress) this.progressListeners.set(progressToken, options.onProgress);
    try {
      const result = await client.callTool({ name, arguments: args, ...metaOf(progressToken) }, undefined, {
        signal: options.signal ? AbortSignal.any([options.signal, clock.signal]) : clock.signal,
        timeout: NO_SDK_TIMEOUT_MS,
      });
      return result as CallToolResult;
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      const context = this.record.failureContext(this.cfg, live?.opened);
      const failure = describeRequestFailure(context, error, `tools/call "${name}"`, timeoutMs);
      if (live && isAuthorizationRequired(error)) this.authorizationLost(live, failure);
      // A broken channel (an HTTP session gone, a network error) will not heal by itself; a scope
      // this call needs is the call's problem, not the connection's.
      else if (live && isTransportFailure(error) && !isScopeRequired(error))
        this.connectionLost(live, failure);
      throw failure;
    } finally {
      clock.stop();
      ended.abort();
      leave();
      if (running) this.runningCalls.delete(running);
      if (progressToken) this.progressListeners.delete(progressToken);
    }
  }

  /** The server's notifications/resources/updated (after a resources/subscribe), across reconnects. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /** Manual reconnect: forgets the failure history (leaves crash-loop) and connects now. */
  async reconnect(): Promise<void> {
    if (this.stopped)
      throw new AppError("upstream_unavailable", `"${this.cfg.name}" is no longer registered.`);
    this.schedule.reset();
    await this.drop();
    if (!this.cfg.enabled) throw new AppError("upstream_unavailable", `"${this.cfg.name}" is disabled.`);
    await this.connect();
  }

  /** Process alive (stdio) + a protocol probe. Never connects: that is what reconnect is for. */
  async healthCheck(): Promise<HealthResult> {
    if (this.connecting) await this.connecting.catch(() => {});
    const live = this.live;
    const started = performance.now();
    const result = (ok: boolean, error?: string, probe?: ProbeMethod): HealthResult => ({
      ok,
      latencyMs: live && (ok || probe) ? Math.round(performance.now() - started) : null,
      ...(error ? { error } : {}),
      checkedAt: this.deps.now().toISOString(),
      ...(probe ? { probe } : {}),
    });
    let outcome: HealthResult;
    if (!live) {
      const last = this.record.error ? `: ${this.record.error.message}` : ".";
      outcome = result(false, `Not connected (${this.current})${last}`);
    } else if (live.opened.kind === "stdio" && !live.opened.transport.isRunning) {
      outcome = result(false, "The server process is not running.");
    } else {
      const timeoutMs = Math.min(this.cfg.callTimeoutMs, MAX_PROBE_TIMEOUT_MS);
      try {
        live.probe = await probeServer(live.client, { timeoutMs, method: live.probe });
        outcome = result(true, undefined, live.probe);
        if (this.live === live) this.probeSucceeded();
      } catch (error) {
        const context = this.record.failureContext(this.cfg, live.opened);
        const failure = describeRequestFailure(context, error, "the health probe", timeoutMs);
        outcome = result(false, failure.message, live.probe);
        if (isAuthorizationRequired(error)) this.authorizationLost(live, failure);
        else this.probeFailed(live, failure, isTransportFailure(error));
      }
    }
    this.record.lastHealth = outcome;
    this.emit({ type: "health.checked", result: outcome });
    return outcome;
  }

  /** The secret values the current attempt resolved (its env, headers, credential). */
  secretValues(): readonly string[] {
    return this.record.secretValues;
  }

  diagnostics(): ConnectionDiagnostics {
    return this.record.diagnostics({
      config: this.cfg,
      state: this.current,
      opened: this.live?.opened,
      connectedAt: this.live?.connectedAt,
      recentFailures: this.schedule.recentFailures(this.deps.now().getTime()),
      nextRetryAt: this.nextRetryAt,
    });
  }

  /** For good (server removed, pool closing): no more attempts; every process is gone on return. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.drop();
  }

  // ── connecting ─────────────────────────────────────────────────────────────────────────

  private connect(): Promise<Client> {
    if (this.connecting) return this.connecting;
    this.clearRetry();
    const generation = ++this.generation;
    const attempt = this.open(generation).finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
  }

  private async open(generation: number): Promise<Client> {
    const abandoned = () => generation !== this.generation || this.stopped;
    this.setState("connecting");
    const started = performance.now();
    let opened: OpenedTransport | undefined;
    let hintTail: string | undefined;
    try {
      const permit = await this.deps.checkPolicy?.(this.cfg);
      const auth = this.upstreamAuth();
      await auth?.ensureTokens();
      const resolved = await resolveConnection(this.cfg, this.deps.resolveValue);
      if (abandoned()) throw new AppError("upstream_unavailable", "The connection attempt was abandoned.");
      this.record.setSecrets(resolved.secrets);
      const commandLine = this.record.commandLine(this.cfg);
      opened = createTransport(
        this.cfg,
        resolved,
        {
          maxMessageBytes: this.deps.maxMessageBytes,
          killGraceMs: this.deps.killGraceMs,
          onSpawn: (pid) => this.record.processStarted(pid, commandLine),
          onStderr: (text) => this.record.stderrText(text),
          onNotice: (text) => this.record.note(text),
        },
        { ...permit, auth },
      );
      this.opening = opened;
      const { client, handshake } = await performHandshake(opened, {
        clientInfo: this.deps.clientInfo,
        timeoutMs: this.cfg.connectTimeoutMs,
        onListChanged: (list) => {
          if (generation === this.generation) this.emit({ type: "list.changed", list });
        },
        relay: {
          progress: ({ progressToken, ...progress }) => this.progressListeners.get(progressToken)?.(progress),
          request: (request, signal) => this.relayRequest(request, signal),
          log: (message) => this.inFlight.logTarget()?.log(message),
          resourceUpdated: (uri) => {
            for (const listener of this.resourceListeners) listener(uri);
          },
        },
      }).catch((error: unknown) => {
        // A hung server's last words are those before we stopped it, not its reaction to SIGTERM.
        if (error instanceof ConnectTimeoutError) hintTail = this.record.stderrTail();
        throw error;
      });
      if (abandoned()) {
        await client.close().catch(() => {});
        throw new AppError("upstream_unavailable", "The connection attempt was abandoned.");
      }
      this.opening = undefined;
      boundRequests(client, () => this.cfg.callTimeoutMs);
      const live: Live = { client, opened, connectedAt: this.deps.now(), probe: "ping" };
      this.live = live;
      this.record.handshake = handshake;
      client.onclose = () => this.onClientClosed(live);
      this.schedule.recordSuccess();
      this.probeFailures = 0;
      this.setState("ready");
      const { instructions, ...rest } = handshake;
      this.emit({
        type: "connected",
        serverInfo: rest.serverInfo,
        capabilities: rest.capabilities,
        protocolVersion: rest.protocolVersion,
        instructions,
        setupMs: Math.round(performance.now() - started),
      });
      this.scheduleHealth();
      return client;
    } catch (error) {
      // Let the process finish dying first, so its exit code and last words are in the error.
      if (opened) await opened.transport.close().catch(() => {});
      if (this.opening === opened) this.opening = undefined;
      const context = { ...this.record.failureContext(this.cfg, opened), hintTail };
      const failure = describeConnectFailure(context, error);
      if (!abandoned()) {
        this.record.recordExit(opened);
        // Even the handshake needs a token or a scope it lacks: only an admin's Connect helps.
        if (isAuthorizationRequired(error) || isScopeRequired(error)) this.waitForAuthorization(failure);
        else this.fail(failure);
      } else if (this.connecting && !this.stopped) {
        return this.connecting; // superseded by a reconnect: its callers get the new attempt
      }
      throw failure;
    }
  }

  private async relayRequest(request: RelayedRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    const route = this.inFlight.route(request);
    switch (route.kind) {
      case "refuse":
        throw new McpError(route.code, route.reason);
      case "operator":
        return this.askOperator(route.target, request, signal, route.reason);
      case "relay": {
        if (!route.fallback) return route.caller.request(request, signal);
        try {
          return await route.caller.request(request, signal);
        } catch (error) {
          if (signal.aborted || route.fallback.signal.aborted || !isCallerGone(error)) throw error;
          const reason = "The client that made this call went away before it answered.";
          return this.askOperator(route.fallback, request, signal, reason);
        }
      }
    }
  }

  /** The caller cannot answer: an operator may, while the call's own timeout is held. */
  private async askOperator(
    target: OperatorTarget,
    request: RelayedRequest,
    signal: AbortSignal,
    refusal: string,
  ): Promise<Record<string, unknown>> {
    const ask = this.deps.askOperator;
    if (!ask) throw new McpError(ErrorCode.MethodNotFound, refusal);
    const release = target.hold();
    try {
      const question = {
        callId: target.callId,
        serverId: this.cfg.id,
        serverName: this.cfg.name,
        params: request.params ?? {},
      };
      return await ask(question, AbortSignal.any([signal, target.signal]));
    } finally {
      release();
    }
  }

  // ── losing the connection ──────────────────────────────────────────────────────────────

  private onClientClosed(live: Live): void {
    const exit = live.opened.kind === "stdio" ? live.opened.transport.exit : undefined;
    const message = exit
      ? `"${this.cfg.name}" ${describeExit({ ...exit, at: exit.at.toISOString() })}.`
      : `The connection to "${this.cfg.name}" closed.`;
    // Synchronous with the close (the SDK fails the pending requests right after): every call
    // that was running is still registered here.
    if (this.live === live && exit && this.runningCalls.size > 0) {
      const calls = [...this.runningCalls];
      const pid = live.opened.kind === "stdio" ? live.opened.transport.pid : undefined;
      this.emit({ type: "crashed.during_calls", pid, exit: { ...exit, at: exit.at.toISOString() }, calls });
    }
    const stderrTail = this.record.stderrTail();
    this.connectionLost(
      live,
      new ConnectionError("upstream_unavailable", message, { serverId: this.cfg.id, stderrTail }),
    );
  }

  /** The live connection is unusable: close what is left, record why, retry later. */
  private connectionLost(live: Live, failure: AppError): void {
    if (this.live !== live) return; // closed on purpose, or already handled
    this.live = undefined;
    this.generation++;
    this.stopHealth();
    this.record.recordExit(live.opened);
    const closing = live.client
      .close()
      .catch(() => {})
      .then(() => this.record.recordExit(live.opened));
    this.retiring.add(closing);
    void closing.finally(() => this.retiring.delete(closing));
    this.fail(failure);
  }

  /** The server no longer accepts what Switchboard holds: close, and wait for an admin's Connect. */
  private authorizationLost(live: Live, failure: AppError): void {
    if (this.live !== live) return;
    this.live = undefined;
    this.generation++;
    this.stopHealth();
    const closing = live.client.close().catch(() => {});
    this.retiring.add(closing);
    void closing.finally(() => this.retiring.delete(closing));
    this.waitForAuthorization(failure);
  }

  /** Not a failure to retry: no timer, no crash loop; a Connect (reconnect) ends the wait. */
  private waitForAuthorization(failure: AppError): void {
    this.record.recordError(failure);
    this.clearRetry();
    this.setState("needs-authorization", failure.message);
  }

  private upstreamAuth(): UpstreamAuth | undefined {
    if (this.cfg.transport === "stdio" || this.cfg.auth.type !== "oauth") return undefined;
    const auth = this.deps.upstreamAuth?.(this.cfg);
    if (!auth) throw new AppError("upstream_unavailable", "OAuth servers are not available in this process.");
    return auth;
  }

  private authorizationError(): AppError {
    return new ConnectionError(
      "upstream_unavailable",
      this.record.error?.message ?? `"${this.cfg.name}" needs authorization.`,
      {
        serverId: this.cfg.id,
      },
    );
  }

  private probeSucceeded(): void {
    this.probeFailures = 0;
    if (this.current === "degraded") this.setState("ready");
  }

  private probeFailed(live: Live, failure: AppError, channelBroken: boolean): void {
    if (this.live !== live) return;
    this.probeFailures++;
    if (channelBroken || this.probeFailures >= this.deps.supervision.degradedProbeLimit) {
      this.connectionLost(live, failure);
    } else {
      this.record.recordError(failure);
      this.setState("degraded", failure.message);
    }
  }

  private fail(failure: AppError): void {
    this.record.recordError(failure);
    const plan = this.schedule.recordFailure(this.deps.now().getTime());
    this.setState(plan.kind === "crash-loop" ? "crash-loop" : "disconnected", failure.message);
    this.clearRetry();
    this.nextRetryAt = new Date(this.deps.now().getTime() + plan.delayMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect().catch(() => {});
    }, plan.delayMs);
    this.retryTimer.unref();
  }

  /** Closes whatever is open or opening, without counting it as a failure. */
  private async drop(): Promise<void> {
    this.generation++;
    this.clearRetry();
    this.stopHealth();
    const { live, opening } = this;
    this.live = undefined;
    this.opening = undefined;
    this.connecting = undefined;
    // Before any await: a caller arriving meanwhile must not see the old connection as ready.
    this.setState(this.cfg.enabled ? "disconnected" : "disabled");
    if (live?.opened.kind === "http") await terminateHttpSession(live.opened);
    await Promise.all([
      live?.client.close().catch(() => {}),
      opening?.transport.close().catch(() => {}),
      ...this.retiring,
    ]);
    if (live) this.record.recordExit(live.opened);
  }

  // ── timers ────────────────────────────────────────────────────────────────────────────

  private scheduleHealth(): void {
    this.stopHealth();
    const live = this.live;
    if (!live) return;
    this.healthTimer = setTimeout(async () => {
      await this.healthCheck().catch(() => {});
      if (this.live === live) this.scheduleHealth();
    }, this.cfg.healthIntervalSeconds * 1000);
    this.healthTimer.unref();
  }

  private stopHealth(): void {
    if (this.healthTimer) clearTimeout(this.healthTimer);
    this.healthTimer = undefined;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.nextRetryAt = undefined;
  }

  // ── reporting ─────────────────────────────────────────────────────────────────────────

  private setState(to: ConnectionState, error?: string): void {
    const from = this.current;
    if (from === to) return;
    this.current = to;
    this.emit({ type: "state.changed", from, to, ...(error ? { error } : {}) });
  }

  private unavailableError(): AppError {
    const when = this.nextRetryAt ? ` The next attempt is at ${this.nextRetryAt.toISOString()}.` : "";
    const state = this.current === "crash-loop" ? "keeps failing (crash loop)" : "is reconnecting";
    const last = this.record.error;
    return new ConnectionError(
      "upstream_unavailable",
      `"${this.cfg.name}" ${state}.${when}${last ? ` Last error: ${last.message}` : ""}`,
      { serverId: this.cfg.id, stderrTail: last?.stderrTail, exit: this.record.exit },
    );
  }

  private emit(event: SubjectlessEvent): void {
    const subject = { serverId: this.cfg.id, tenantId: this.cfg.tenantId, serverName: this.cfg.name };
    this.deps.emit({ ...event, ...subject, at: this.deps.now().toISOString() } as PoolEvent);
  }
}

/** Streamable HTTP: end the session politely (DELETE), but never wait long for it. */
async function terminateHttpSession(opened: OpenedTransport & { kind: "http" }): Promise<void> {
  const transport = opened.transport as { terminateSession?: () => Promise<void>; sessionId?: string };
  if (!transport.terminateSession || !transport.sessionId) return;
  await Promise.race([
    transport.terminateSession().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 1000).unref()),
  ]);
}

/**
 * The caller's client could not be reached (its stream closed, the send failed), as opposed to
 * answering with an error of its own — which is its answer and is passed on.
 */
function isCallerGone(error: unknown): boolean {
  return !(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed;
}

/** The request's `_meta`: the progress token, and the trace (MCP convention, for stdio servers too). */
function metaOf(progressToken: string | number | undefined): { _meta?: Record<string, unknown> } {
  const meta = { ...(progressToken === undefined ? {} : { progressToken }), ...traceMeta() };
  return Object.keys(meta).length > 0 ? { _meta: meta } : {};
}
