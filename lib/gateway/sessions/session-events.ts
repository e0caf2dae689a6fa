import type { Database } from "@/lib/db/client";
import type { RecordedEvent } from "@/lib/events/event-types";
import { recordEvent, subscribeEvents } from "@/lib/events/record-event";
import { authenticateGateway, GatewayRefusal } from "@/lib/gateway/auth";
import { catalogScopeOf, permittedServers } from "@/lib/gateway/server/catalog";
import { resourceSubscriptions } from "@/lib/gateway/server/subscriptions";
import { serverOfScope } from "@/lib/gateway/server/tools";
import { log } from "@/lib/observability/log";
import { getDatabase } from "@/lib/runtime/process-db";
import type { GatewaySession, ListName } from "./session";
import type { SessionCap } from "./session-caps";

/**
 * Open sessions follow what they were told: a client hears `list_changed` when the catalog, a
 * server, a tool or its principal's grants change (and lists again), and its session is closed
 * when the credential it was opened with no longer opens the gateway (key revoked, principal
 * deleted, loopback mapping changed). Every request authenticates anyway; closing ends the
 * streams of clients that only listen. Events of other processes arrive through the event relay.
 */

const ALL_LISTS: ListName[] = ["tools", "resources", "prompts"];

export function followWorkspaceChanges(sessions: () => Iterable<GatewaySession>): () => void {
  return subscribeEvents((event) => {
    const inWorkspace = (match: (session: GatewaySession) => boolean) =>
      [...sessions()].filter((session) => session.principal.tenantId === event.tenantId && match(session));
    const showing = (serverName: string) => (session: GatewaySession) =>
      [undefined, serverName].includes(serverOfScope(session.scope));
    switch (event.type) {
      case "catalog.changed":
        for (const session of inWorkspace(showing(event.serverName)))
          session.notifyListChanged(changedLists(event));
        return;
      case "server.registered":
      case "server.updated":
      case "server.deleted":
        for (const session of inWorkspace(showing(event.serverName))) session.notifyListChanged(ALL_LISTS);
        return;
      case "policy.changed":
        switch (event.subject) {
          case "grants": {
            // Grants decide the tools and which servers' resources and prompts are visible.
            const affected = inWorkspace((s) => s.principal.principalId === event.subjectId);
            for (const session of affected) session.notifyListChanged(ALL_LISTS);
            void dropUnpermittedSubscriptions(affected).catch((error: unknown) =>
              log.error({ err: error }, "re-checking resource subscriptions failed"),
            );
            return;
          }
          case "tool":
            for (const session of inWorkspace(() => true)) session.notifyListChanged(["tools"]);
            return;
          case "api_key":
          case "principal":
          case "gateway":
            void closeRefused(inWorkspace(() => true));
            return;
          default:
            return;
        }
      default:
        return;
    }
  });
}

function changedLists(event: Extract<RecordedEvent, { type: "catalog.changed" }>): ListName[] {
  const changed = (diff: { added: string[]; removed: string[]; changed: string[] }) =>
    diff.added.length + diff.removed.length + diff.changed.length > 0;
  const { diff } = event;
  return [
    ...(changed(diff.tools) ? (["tools"] as const) : []),
    ...(changed(diff.resources) || changed(diff.resourceTemplates) ? (["resources"] as const) : []),
    ...(changed(diff.prompts) ? (["prompts"] as const) : []),
  ];
}

/** A principal that lost every grant on a server stops hearing about that server's resources. */
async function dropUnpermittedSubscriptions(sessions: GatewaySession[]): Promise<void> {
  if (sessions.length === 0) return;
  const { db } = await getDatabase();
  for (const session of sessions) {
    const permitted = new Set(
      (await permittedServers(db, catalogScopeOf(session))).map((server) => server.id),
    );
    resourceSubscriptions.dropUnpermitted(session.id, (serverId) => permitted.has(serverId));
  }
}

/** Closes the sessions whose credentials are now refused (never on a passing failure, e.g. the database). */
async function closeRefused(sessions: GatewaySession[]): Promise<void> {
  if (sessions.length === 0) return;
  const { db } = await getDatabase();
  await Promise.all(
    sessions.map(async (session) => {
      try {
        const now = await authenticateGateway(db, session.opener.credentials);
        if (session.admits(now, session.scope) !== "yes") await session.close();
      } catch (error) {
        if (error instanceof GatewayRefusal) await session.close();
      }
    }),
  );
}

/**
 * A session closed to make room for a newer one of the same principal or workspace (session-caps):
 * recorded in that workspace, naming whose it was and which cap, so a client's lost session is
 * explained — never its id, which a request could still present.
 */
export function recordSessionEvicted(
  db: Database,
  session: GatewaySession,
  detail: { cap: SessionCap; idleMs: number },
): Promise<RecordedEvent> {
  const { tenantId, principalId, principalName } = session.principal;
  return recordEvent(db, {
    tenantId,
    event: {
      type: "gateway.session_evicted",
      principalId,
      principalName,
      cap: detail.cap,
      idleSeconds: Math.round(detail.idleMs / 1000),
    },
  });
}
