import { doublePrecision, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId, timestamps } from "./columns";

/** Tenant-wide policies (egress, approvals, gateway, limits), one row per kind, validated by their owners in lib/policy. */
export const tenantPolicies = pgTable(
  "tenant_policies",
  {
    tenantId: tenantId(),
    kind: text("kind", { enum: ["egress", "approvals", "gateway", "limits"] }).notNull(),
    policy: jsonb("policy").$type<Record<string, unknown>>().notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind] })],
);

/**
 * Token buckets of the call limits (lib/limits/token-bucket.ts), one row per workspace and key
 * (`principal:<name>`, `server:<name>`). A row in the database, not a counter in memory, so every
 * process of a PostgreSQL deployment takes from the same bucket; one atomic statement refills and
 * takes, on PGlite as on PostgreSQL.
 */
export const rateBuckets = pgTable(
  "rate_buckets",
  {
    tenantId: tenantId(),
    key: text("key").notNull(),
    tokens: doublePrecision("tokens").notNull(),
    refilledAt: timestamp("refilled_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] })],
);
