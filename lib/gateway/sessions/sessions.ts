import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { resourceSubscriptions } from "@/lib/gateway/server/subscriptions";
import type { GatewayScope } from "@/lib/gateway/server/tools";
import { log } from "@/lib/observability/log";
import { processSingleton } from "@/lib/process-singleton";
import { GatewaySession } from "./session";
import { decideRoom, describeRefusal, type SessionCap } from "./session-caps";
import { followWorkspaceChanges, recordSessionEvicted } from "./session-events";
import { forgetSessionOwner, recordSessionOwner } from "./session-owners";

/**
 * The gateway sessions open on this process. A session lives in this process's memory; which
 * replica holds it is in the database (session-owners), so another replica hands the session's
 * requests to this one (lib/gateway/http/hand-off). On globalThis, so every route bundle (and dev
 * reloads) share one registry.
 *
 * Clients often just go away without a DELETE, so a session idle for SESSION_IDLE_MS is closed.
 * Caps per principal, per workspace and in all (session-caps) bound what one process holds: a new
 * session past a cap pushes out the oldest idle one of the same principal or workspace — never
 * another workspace's — and is refused (429) when none is idle.
 */

export const SESSION_IDLE_MS = 10 * 60_000;
const SWEEP_EVERY_MS = 60_000;

class GatewaySessions {
  private readonly sessions = new Map<string, GatewaySession>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor() {
    followWorkspaceChanges(() => this.sessions.values());
  }

  get(id: string): GatewaySession | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Opens a session for an initialize request and answers it, or refuses it (429) when a cap is
   * reached and no session that may make room is idle.
   */
  async open(
    db: Database,
    opener: { principal: GatewayPrincipal; scope: GatewayScope; credentials: Headers },
    req: Request,
    body: unknown,
  ): Promise<Response> {
    // Decided and registered without an await in between, so concurrent initializes (a client
    // opening hundreds at once) are counted one by one and cannot all slip under a cap together.
    const { principal } = opener;
    const decision = decideRoom(this.held(), principal, readEnv().mcpSessionCaps);
    switch (decision.kind) {
      case "refuse":
        return refusal(decision.cap, decision.limit, body);
      case "evict":
        this.evict(db, decision.session.session, decision.cap);
        break;
      case "room":
        break;
    }
    const session = new GatewaySession(db, opener, (closed) => this.forget(db, closed));
    // Busy until its initialize is answered: a session being opened is never the one pushed out.
    const opened = session.hold();
    this.sessions.set(session.id, session);
    this.startSweeping();
    try {
      await session.connect();
      const response = await session.handle(req, body);
      // The transport refused the initialize (malformed, wrong headers): no session came of it.
      if (session.transport.sessionId === undefined) await session.close();
      // Before the client has the id: its next request may land on another replica, which looks here.
      // Not recorded (the database is failing): the session still works on this replica.
      else
        await recordSessionOwner(db, session).catch((error: unknown) =>
          log.warn(
            { err: error },
            "a gateway session's owner was not recorded: only this replica can serve it",
          ),
        );
      return response;
    } catch (error) {
      // A server that never connected does not report its close: forget it here as well.
      this.forget(db, session);
      await session.close();
      throw error;
    } finally {
      opened();
    }
  }

  /** Closes sessions idle for longer than SESSION_IDLE_MS. */
  sweep(now = Date.now()): void {
    for (const session of this.sessions.values()) {
      const idleSince = session.idleSince();
      if (idleSince !== undefined && now - idleSince > SESSION_IDLE_MS) void session.close();
    }
  }

  /** Shutdown (and tests): every session closed. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.close()));
  }

  private *held() {
    for (const session of this.sessions.values()) {
      yield {
        session,
        tenantId: session.principal.tenantId,
        principalId: session.principal.principalId,
        idleSince: session.idleSince(),
      };
    }
  }

  private evict(db: Database, session: GatewaySession, cap: SessionCap): void {
    const idleSince = session.idleSince() ?? Date.now();
    this.forget(db, session);
    void session.close();
    void recordSessionEvicted(db, session, { cap, idleMs: Date.now() - idleSince }).catch((error: unknown) =>
      log.error({ err: error }, "recording an evicted gateway session failed"),
    );
  }

  private forget(db: Database, session: GatewaySession): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    forgetSessionOwner(db, session.id).catch((error: unknown) =>
      log.warn({ err: error }, "forgetting a closed gateway session's owner failed"),
    );
    resourceSubscriptions.dropSession(session.id);
    if (this.sessions.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }
}

/** A JSON-RPC error answering the initialize (its id when there is one), as HTTP 429. */
function refusal(cap: SessionCap, limit: number, body: unknown): Response {
  const message = Array.isArray(body) ? undefined : (body as { id?: unknown } | undefined);
  const id = typeof message?.id === "string" || typeof message?.id === "number" ? message.id : null;
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: describeRefusal(cap, limit) }, id },
    { status: 429, headers: { "Retry-After": "10" } },
  );
}

export const gatewaySessions = processSingleton("GatewaySessions", () => new GatewaySessions());
