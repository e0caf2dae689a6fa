import type { Database } from "@/lib/db/client";
import { demoServerConfigs } from "@/lib/demo/demo-servers";
import { registerServer } from "@/lib/servers/registry";
import { ensureDefaultTenant } from "@/lib/tenancy/default-tenant";

/** Runs after migrations on every start: the default workspace, and demo servers on a new database. */
export async function bootstrapDatabase(db: Database, options: { seedDemoServers: boolean }) {
  const { tenant, created } = await ensureDefaultTenant(db);
  if (created && options.seedDemoServers) {
    for (const input of demoServerConfigs()) await registerServer(db, { tenantId: tenant.id, input });
  }
  return tenant;
}
