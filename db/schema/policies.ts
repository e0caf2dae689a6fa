import { jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tenantId, timestamps } from "./columns";

/** Tenant-wide policies (egress, approvals, gateway), one row per kind, validated by their owners in lib/policy. */
export const tenantPolicies = pgTable(
  "tenant_policies",
  {
    tenantId: tenantId(),
    kind: text("kind", { enum: ["egress", "approvals", "gateway"] }).notNull(),
    policy: jsonb("policy").$type<Record<string, unknown>>().notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind] })],
);
