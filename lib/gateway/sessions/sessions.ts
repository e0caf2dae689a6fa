import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { resourceSubscriptions } from "@/lib/gateway/server/subscriptions";
import type { GatewayScope } from "@/lib/gateway/server/tools";
import { processSingleton } from "@/lib/process-singleton";
import { GatewaySession } from "./session";
import { followWorkspaceChanges } from "./session-events";

/**
 * The gateway sessions open on this process. A session lives in this process's memory only:
 * another replica (or this one after a restart) does not know it and answers its plain requests
 * statelessly. On globalThis, so every route bundle (and dev reloads) share one registry.
 *
 * Clients often just go away without a DELETE, so a session idle for SESSION_IDLE_MS is closed,
 * and at MAX_SESSIONS the longest idle one makes room for a new one.
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
   * Opens a session for an initialize request and answers it; undefined when this process has no
   * room (every session busy), in which case the caller answers it statelessly.
   */
  async open(
    db: Database,
    opener: { principal: GatewayPrincipal; scope: GatewayScope; credentials: Headers },
    req: Request,
    body: unknown,
  ): Promise<Response | undefined> {
    if (!this.makeRoom()) return undefined;
    const session = new GatewaySession(db, opener, (closed) => this.forget(closed));
    await session.connect();
    this.sessions.set(session.id, session);
    this.startSweeping();
    try {
      const response = await session.handle(req, body);
      // The transport refused the initialize (malformed, wrong headers): no session came of it.
      if (session.transport.sessionId === undefined) await session.close();
      return response;
    } catch (error) {
      await session.close();
      throw error;
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

  private makeRoom(): boolean {
    if (this.sessions.size < readEnv().mcpSessionCaps.perProcess) return true;
    let oldest: { session: GatewaySession; since: number } | undefined;
    for (const session of this.sessions.values()) {
      const since = session.idleSince();
      if (since !== undefined && (!oldest || since < oldest.since)) oldest = { session, since };
    }
    if (!oldest) return false;
    this.forget(oldest.session);
    void oldest.session.close();
    return true;
  }

  private forget(session: GatewaySession): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
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

export const gatewaySessions = processSingleton("GatewaySessions", () => new GatewaySessions());
