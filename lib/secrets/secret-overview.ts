import { eq } from "drizzle-orm";
import { mcpServers } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { secretNamesOf } from "@/lib/servers/server-dto";
import { listSecrets } from "./secrets";

/**
 * Every secret name the workspace knows: those stored, and those its servers refer to without a
 * value yet (such a server cannot connect until one is set) — with the servers using each.
 */
export type SecretOverviewEntry = {
  name: string;
  isSet: boolean;
  updatedAt: string | null;
  usedBy: string[];
};

export async function listSecretOverview(
  db: Database,
  params: { tenantId: string },
): Promise<SecretOverviewEntry[]> {
  const [stored, servers] = await Promise.all([
    listSecrets(db, params),
    db
      .select({
        name: mcpServers.name,
        env: mcpServers.env,
        headers: mcpServers.headers,
        auth: mcpServers.auth,
      })
      .from(mcpServers)
      .where(eq(mcpServers.tenantId, params.tenantId))
      .orderBy(mcpServers.name),
  ]);
  const entries = new Map<string, SecretOverviewEntry>(
    stored.map((secret) => [
      secret.name,
      { name: secret.name, isSet: true, updatedAt: secret.updatedAt, usedBy: [] },
    ]),
  );
  for (const server of servers) {
    for (const name of new Set(secretNamesOf(server))) {
      const entry = entries.get(name) ?? { name, isSet: false, updatedAt: null, usedBy: [] };
      entry.usedBy.push(server.name);
      entries.set(name, entry);
    }
  }
  // Missing values first: they are what keeps a server from connecting.
  return [...entries.values()].sort(
    (a, b) => Number(a.isSet) - Number(b.isSet) || a.name.localeCompare(b.name),
  );
}
