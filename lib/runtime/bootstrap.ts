import "server-only";
import { createApiKey } from "@/lib/auth/api-keys";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { Database } from "@/lib/db/client";
import { demoServerConfigs, demoToolEffects } from "@/lib/demo/demo-servers";
import { registerServer } from "@/lib/servers/registry";
import { ensureDefaultTenant } from "@/lib/tenancy/default-tenant";

export type BootstrapOptions = { seedDemoServers: boolean; bootstrapApiKey?: string };

/**
 * Runs after migrations on every start. On an empty database: the first workspace, the demo
 * servers, and — for headless installs — an admin + owner API key of exactly the given value.
 */
export async function bootstrapDatabase(db: Database, options: BootstrapOptions) {
  const { tenant, created } = await ensureDefaultTenant(db);
  if (!created) return tenant;
  if (options.seedDemoServers) {
    for (const input of demoServerConfigs())
      await registerServer(db, {
        tenantId: tenant.id,
        input,
        authority: SYSTEM_AUTHORITY,
        knownToolEffects: demoToolEffects[input.name],
      });
  }
  if (options.bootstrapApiKey) {
    await createApiKey(db, {
      tenantId: tenant.id,
      // The machine's key (no person behind it, lib/auth/key-standing): admin and owner; agents
      // reach the gateway with a principal's key.
      input: { name: "bootstrap", scopes: ["admin", "owner"] },
      by: null,
      instanceOwner: true,
      value: options.bootstrapApiKey,
    });
  }
  return tenant;
}
