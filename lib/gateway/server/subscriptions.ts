import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/lib/db/client";
import { subscribeEvents } from "@/lib/events/record-event";
import { processSingleton } from "@/lib/process-singleton";
import { catalogScopeOf, resourceServerOrThrow, runningPool } from "./catalog";
import type { GatewayContext } from "./context";

/**
 * Resource subscriptions through the gateway, for sessions only: a stateless request has no
 * stream to be told about an update later. A session subscribes to a URI of a permitted server
 * (gateway-catalog); Switchboard subscribes once per (server, URI) on the shared pooled connection,
 * however many sessions watch it, relays each notifications/resources/updated to all of them, and
 * ends the downstream subscription when the last one leaves (unsubscribes or closes).
 */

type Deliver = (uri: string) => void;
type Watch = {
  serverId: string;
  uri: string;
  watchers: Map<string, Deliver>;
  ready: Promise<void>;
  stop: () => void;
};

class ResourceSubscriptions {
  private readonly watches = new Map<string, Watch>();

  constructor() {
    // A server that reconnected (restarted, crashed, reconfigured) has forgotten what it was asked
    // to watch: ask again on the new connection. Updates reach the pool-level listener as before.
    subscribeEvents((event) => {
      if (event.type === "server.state_changed" && event.to === "ready") this.renew(event.serverId);
    });
  }

  private renew(serverId: string): void {
    for (const watch of this.watches.values()) {
      if (watch.serverId !== serverId) continue;
      void runningPool()
        .then((pool) => pool.getClient(serverId))
        .then((client) => client.subscribeResource({ uri: watch.uri }))
        .catch(() => {});
    }
  }

  async subscribe(params: {
    serverId: string;
    uri: string;
    sessionId: string;
    deliver: Deliver;
    /** false once the session closed: it may close while the downstream subscribe is in flight */
    sessionOpen: () => boolean;
    /** false once the principal may no longer use the server: grants may change meanwhile too */
    stillPermitted: () => Promise<boolean>;
  }): Promise<void> {
    const key = `${params.serverId} ${params.uri}`;
    let watch = this.watches.get(key);
    if (!watch) {
      watch = this.open(params.serverId, params.uri);
      this.watches.set(key, watch);
    }
    try {
      await watch.ready;
    } catch (error) {
      if (this.watches.get(key) === watch) this.watches.delete(key);
      throw error;
    }
    // The last watcher may have left while this one waited: then start over.
    if (this.watches.get(key) !== watch) return this.subscribe(params);
    watch.watchers.set(params.sessionId, params.deliver);
    // Closed or no longer permitted meanwhile: dropSession or dropUnpermitted ran already and
    // missed this watcher, so it leaves now (ending the watch if it was the last).
    if (!params.sessionOpen()) {
      this.leave(watch, params.sessionId);
      return;
    }
    if (!(await params.stillPermitted())) {
      this.leave(watch, params.sessionId);
      throw new McpError(
        ErrorCode.InvalidParams,
        `${params.uri}: this principal may no longer use the server that lists it.`,
      );
    }
  }

  unsubscribe(sessionId: string, uri: string): void {
    for (const watch of this.watches.values()) {
      if (watch.uri === uri) this.leave(watch, sessionId);
    }
  }

  /** The URIs a session watches. */
  watchedBy(sessionId: string): string[] {
    return [...this.watches.values()].filter((w) => w.watchers.has(sessionId)).map((w) => w.uri);
  }

  /** Ends the session's watches on servers `stillPermitted` rejects (its grants changed). */
  dropUnpermitted(sessionId: string, stillPermitted: (serverId: string) => boolean): void {
    for (const watch of [...this.watches.values()]) {
      if (watch.watchers.has(sessionId) && !stillPermitted(watch.serverId)) this.leave(watch, sessionId);
    }
  }

  /** A session closed: it watches nothing any more. */
  dropSession(sessionId: string): void {
    for (const watch of [...this.watches.values()]) this.leave(watch, sessionId);
  }

  private leave(watch: Watch, sessionId: string): void {
    if (!watch.watchers.delete(sessionId) || watch.watchers.size > 0) return;
    this.watches.delete(`${watch.serverId} ${watch.uri}`);
    watch.stop();
    // Best effort: a server gone or reconnected has forgotten the subscription anyway.
    void runningPool()
      .then((pool) => pool.getClient(watch.serverId))
      .then((client) => client.unsubscribeResource({ uri: watch.uri }))
      .catch(() => {});
  }

  private open(serverId: string, uri: string): Watch {
    const watchers = new Map<string, Deliver>();
    let stop = () => {};
    const ready = (async () => {
      const pool = await runningPool();
      const client = await pool.getClient(serverId);
      if (!client.getServerCapabilities()?.resources?.subscribe) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          `The server behind ${uri} does not offer resource subscriptions.`,
        );
      }
      stop = pool.onResourceUpdated(serverId, (updated) => {
        if (updated !== uri) return;
        for (const deliver of watchers.values()) deliver(uri);
      });
      try {
        await client.subscribeResource({ uri });
      } catch (error) {
        stop();
        throw error;
      }
    })();
    return { serverId, uri, watchers, ready, stop: () => stop() };
  }
}

export const resourceSubscriptions = processSingleton(
  "ResourceSubscriptions",
  () => new ResourceSubscriptions(),
);

export function registerSubscriptionHandlers(server: Server, db: Database, context: GatewayContext): void {
  const perRequest = catalogScopeOf(context);
  const sessionOrThrow = (method: string) => {
    if (context.session) return context.session;
    throw new McpError(
      ErrorCode.InvalidRequest,
      `${method} needs a session: send initialize first and then the Mcp-Session-Id it answers with.`,
    );
  };

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const session = sessionOrThrow(request.method);
    const { uri } = request.params;
    const target = await resourceServerOrThrow(db, perRequest, uri);
    await resourceSubscriptions.subscribe({
      serverId: target.id,
      uri,
      sessionId: session.id,
      deliver: (updated) => session.notifyResourceUpdated(updated),
      sessionOpen: () => !session.closed,
      // Asked after the watch is registered: a grant change from then on drops it as usual.
      stillPermitted: async () =>
        (await resourceServerOrThrow(db, perRequest, uri).catch(() => undefined))?.id === target.id,
    });
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    resourceSubscriptions.unsubscribe(sessionOrThrow(request.method).id, request.params.uri);
    return {};
  });
}
