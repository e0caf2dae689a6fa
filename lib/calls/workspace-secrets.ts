import { eq } from "drizzle-orm";
import { mcpServers } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { rememberLogSecrets } from "@/lib/observability/log";
import { decisionCache } from "@/lib/policy/decision-cache";
import { readSecretValues } from "@/lib/secrets/secrets";
import { normalizeSecrets } from "./scrub";

/**
 * Every secret value the workspace holds — stored secrets and the environment variables its
 * servers reference with `fromEnv` — so arguments, results and errors can be scrubbed of them.
 * Read fresh here; the call path takes them from the process cache (cachedWorkspaceSecrets).
 */
export async function loadWorkspaceSecrets(db: Database, params: { tenantId: string }): Promise<string[]> {
  const [stored, referenced] = await Promise.all([
    readSecretValues(db, params),
    readReferencedEnv(db, params),
  ]);
  const secrets = normalizeSecrets([...stored, ...referenced]);
  rememberLogSecrets(secrets); // the server log is scrubbed of them too
  return secrets;
}

async function readReferencedEnv(db: Database, params: { tenantId: string }): Promise<string[]> {
  const servers = await db
    .select({ env: mcpServers.env, headers: mcpServers.headers, auth: mcpServers.auth })
    .from(mcpServers)
    .where(eq(mcpServers.tenantId, params.tenantId));
  const names = servers.flatMap((server) => {
    const values = [...Object.values(server.env), ...Object.values(server.headers)];
    if ("credential" in server.auth) values.push(server.auth.credential);
    return values.flatMap((v) => (typeof v === "object" && "fromEnv" in v ? [v.fromEnv] : []));
  });
  return names.flatMap((name) => process.env[name] ?? []);
}

/**
 * The call path's copy, per process: writing or deleting a secret records a policy.changed event,
 * and a server's env references change with server.updated — either drops it before the next call
 * here (and a NOTIFY later on other processes), so a secret written a second ago is scrubbed.
 */
export function cachedWorkspaceSecrets(db: Database, params: { tenantId: string }): Promise<string[]> {
  return decisionCache.get(params.tenantId, "secrets", () => loadWorkspaceSecrets(db, params));
}
