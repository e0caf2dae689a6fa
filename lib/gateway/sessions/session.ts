import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { LoggingLevel, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { mayAskBack } from "@/lib/gateway/server/caller";
import type { GatewaySessionState, RequestExtra } from "@/lib/gateway/server/context";
import { buildGatewayServer } from "@/lib/gateway/server/server";
import type { GatewayScope } from "@/lib/gateway/server/tools";
import { SessionEventStore } from "./event-store";

export type ListName = "tools" | "resources" | "prompts";

/**
 * One stateful gateway session on this process: the SDK transport with its session id, the
 * gateway server behind it, who opened it and on which endpoint. Busy while any of its HTTP
 * responses is open (a request being answered, the GET stream a client listens on); idle since
 * the last one ended.
 */
export class GatewaySession implements GatewaySessionState {
  readonly id = randomUUID();
  logLevel: LoggingLevel | undefined;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  // The JSON-RPC requests of each HTTP request, so a handler can stop when its HTTP request goes away.
  private readonly requestSignals = new Map<RequestId, AbortSignal>();
  // Tool calls answered directly (gateway-direct), outside the SDK server: cancelled from here.
  private readonly directCalls = new Map<RequestId, AbortController>();
  private openResponses = 0;
  /** Set once its server closed (DELETE, idle, shutdown); nothing may be registered for it after. */
  closed = false;
  private lastActiveAt = Date.now();

  constructor(
    db: Database,
    readonly opener: {
      principal: GatewayPrincipal;
      scope: GatewayScope;
      /** The request's headers: authenticated again when its workspace's keys or principals change. */
      credentials: Headers;
    },
    onClosed: (session: GatewaySession) => void,
  ) {
    const { principal, scope } = opener;
    this.server = buildGatewayServer(db, {
      principal,
      scope,
      session: this,
      signalFor: (extra) => this.signalFor(extra),
    });
    // Event streams always: requests and notices of the downstream server ride on a call's stream.
    // Resumable when asked for: a client whose stream dropped reconnects with Last-Event-ID and
    // misses nothing. Off by default: every POST stream then opens with a stored priming event,
    // ~1.5 ms more per call on these machines (BENCHMARKS.md).
    this.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => this.id,
      ...(readEnv().mcpResumableStreams ? { eventStore: new SessionEventStore() } : {}),
    });
    this.server.onclose = () => {
      this.closed = true;
      onClosed(this);
    };
  }

  get principal(): GatewayPrincipal {
    return this.opener.principal;
  }

  get scope(): GatewayScope {
    return this.opener.scope;
  }

  connect(): Promise<void> {
    return this.server.connect(this.transport);
  }

  /** When it went idle; undefined while busy. */
  idleSince(): number | undefined {
    return this.openResponses === 0 ? this.lastActiveAt : undefined;
  }

  /** Whether a request by `principal` on the `scope` endpoint may use this session, and if not, why. */
  admits(principal: GatewayPrincipal, scope: GatewayScope): "yes" | "other-principal" | "other-endpoint" {
    const mine = this.opener.principal;
    if (principal.tenantId !== mine.tenantId || principal.principalId !== mine.principalId)
      return "other-principal";
    return scopeKey(scope) === scopeKey(this.opener.scope) ? "yes" : "other-endpoint";
  }

  async handle(req: Request, body?: unknown): Promise<Response> {
    this.cancelDirectCalls(body);
    const ids = requestIdsOf(body);
    for (const id of ids) this.requestSignals.set(id, req.signal);
    const finish = this.busy(() => {
      for (const id of ids) if (this.requestSignals.get(id) === req.signal) this.requestSignals.delete(id);
    });
    try {
      const response = await this.transport.handleRequest(
        req,
        body === undefined ? undefined : { parsedBody: body },
      );
      return whenFinished(response, finish);
    } catch (error) {
      finish();
      throw error;
    }
  }

  /**
   * Whether a tool call of this session can be answered as plain JSON (gateway-direct): only when
   * nothing could need the call's own response stream — the client declared none of sampling,
   * elicitation and roots, so no downstream request is relayed to it mid-call.
   */
  answersPlainly(): boolean {
    return !mayAskBack(this.server.getClientCapabilities());
  }

  /**
   * A tool call answered directly: the session counts as busy until `finish`, and the client's
   * `notifications/cancelled` for `requestId` (arriving through handle) aborts `controller`.
   */
  beginDirectCall(requestId: RequestId, controller: AbortController): () => void {
    this.directCalls.set(requestId, controller);
    return this.busy(() => {
      if (this.directCalls.get(requestId) === controller) this.directCalls.delete(requestId);
    });
  }

  /** Busy until the returned function (idempotent) is called: while it is being opened. */
  hold(): () => void {
    return this.busy(() => {});
  }

  /** Marks the session busy; the returned function (idempotent) ends that and runs `cleanup`. */
  private busy(cleanup: () => void): () => void {
    this.openResponses++;
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      this.openResponses--;
      this.lastActiveAt = Date.now();
      cleanup();
    };
  }

  private cancelDirectCalls(body: unknown): void {
    if (this.directCalls.size === 0) return;
    for (const message of Array.isArray(body) ? body : [body]) {
      const { method, params } = (message ?? {}) as { method?: unknown; params?: { requestId?: unknown } };
      if (method !== "notifications/cancelled") continue;
      const requestId = params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number")
        this.directCalls.get(requestId)?.abort();
    }
  }

  notifyResourceUpdated(uri: string): void {
    this.server.sendResourceUpdated({ uri }).catch(() => {});
  }

  notifyListChanged(lists: Iterable<ListName>): void {
    for (const list of lists) {
      const sent =
        list === "tools"
          ? this.server.sendToolListChanged()
          : list === "resources"
            ? this.server.sendResourceListChanged()
            : this.server.sendPromptListChanged();
      sent.catch(() => {});
    }
  }

  /** Ends the session: its streams close, its running calls are cancelled, onClosed follows. */
  close(): Promise<void> {
    for (const controller of this.directCalls.values()) controller.abort();
    return this.server.close();
  }

  private signalFor(extra: RequestExtra): AbortSignal {
    const http = this.requestSignals.get(extra.requestId);
    return AbortSignal.any(http ? [extra.signal, http] : [extra.signal]);
  }
}

const scopeKey = (scope: GatewayScope) => (typeof scope === "string" ? scope : `server:${scope.server}`);

function requestIdsOf(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? [id] : [];
  });
}

/**
 * The same response, calling `finish` once its event stream has been read to the end or cancelled.
 * Any other answer (JSON, 202, an error) is complete as it is.
 */
function whenFinished(response: Response, finish: () => void): Response {
  if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) {
    finish();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finish();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
