import { asc, eq } from "drizzle-orm";
import { mcpServers } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import {
  CATALOG_PART_MAX_AGE_MS,
  catalogNamespace,
  decisionCache,
  serverCatalogNamespace,
} from "@/lib/policy/decision-cache";
import { type GovernedToolDto, listGovernedToolsByServer } from "./governed-tools";
import { withConflicts } from "./read-catalog";

/**
 * Every live tool of the workspace, governed, as the gateway lists them: kept in the decision cache
 * one server at a time, so a refresh of one server's catalog, a change of its settings or of one of
 * its tools re-reads that server's tools only (lib/policy/decision-cache says which events drop
 * what). Name conflicts span servers: they are worked out again whenever the parts are put
 * together, in one pass.
 */
export function cachedGovernedTools(db: Database, params: { tenantId: string }): Promise<GovernedToolDto[]> {
  const { tenantId } = params;
  const whole = catalogNamespace(tenantId);
  return decisionCache.get(whole, "governed-tools", async () => {
    const serverIds = await decisionCache.get(whole, "server-ids", () => listServerIds(db, tenantId));
    // The parts not cached are read with one query, begun once every part has asked: a cold start
    // is one read of the workspace, a change of one server one read of its tools. Each part's
    // entry exists before the read begins, so a change during the read drops what it would give.
    const missing: string[] = [];
    let read: Promise<Map<string, GovernedToolDto[]>> | undefined;
    const parts = serverIds.map((serverId) =>
      decisionCache.get(
        serverCatalogNamespace(tenantId, serverId),
        "governed-tools",
        () => {
          missing.push(serverId);
          read ??= Promise.resolve().then(() =>
            listGovernedToolsByServer(db, {
              tenantId,
              ...(missing.length === serverIds.length ? {} : { serverIds: missing }),
            }),
          );
          return read.then((byServer) => byServer.get(serverId) ?? []);
        },
        CATALOG_PART_MAX_AGE_MS,
      ),
    );
    return withConflicts((await Promise.all(parts)).flat());
  });
}

/** The workspace's servers in name order (the order of the catalog's listings). */
async function listServerIds(db: Database, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ id: mcpServers.id })
    .from(mcpServers)
    .where(eq(mcpServers.tenantId, tenantId))
    .orderBy(asc(mcpServers.name));
  return rows.map((row) => row.id);
}
