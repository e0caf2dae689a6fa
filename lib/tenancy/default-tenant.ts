import { eq } from "drizzle-orm";
import { type Tenant, tenants } from "@/db/schema";
import type { Database } from "@/lib/db/client";

export const DEFAULT_TENANT_SLUG = "default";

/**
 * Until operators and workspaces arrive, every request acts in one workspace.
 * `created` tells the caller this is the first start of an empty database.
 */
export async function ensureDefaultTenant(db: Database): Promise<{ tenant: Tenant; created: boolean }> {
  const [inserted] = await db
    .insert(tenants)
    .values({ slug: DEFAULT_TENANT_SLUG, name: "Default workspace" })
    .onConflictDoNothing({ target: tenants.slug })
    .returning();
  if (inserted) return { tenant: inserted, created: true };
  const [existing] = await db.select().from(tenants).where(eq(tenants.slug, DEFAULT_TENANT_SLUG));
  if (!existing) throw new Error("The default workspace could not be created.");
  return { tenant: existing, created: false };
}
