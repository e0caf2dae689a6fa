import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { id, tenantId } from "./columns";
import { principals } from "./principals";

/** One condition on a call's (scrubbed) arguments: a top-level field equals a value, or matches a pattern. */
export type AllowRuleCondition = { field: string; op: "equals" | "matches"; value: string };

/**
 * "Allow <principal> to call <tool> until <expiresAt>", made from an approval (lib/approvals/allow-rules.ts).
 * It only ever turns "needs approval" into "allow" for a call the principal's grants already allow;
 * it is not applied after `expiresAt` or once revoked, so nothing has to sweep it.
 */
export const allowRules = pgTable(
  "allow_rules",
  {
    id: id(),
    tenantId: tenantId(),
    principalId: text("principal_id")
      .notNull()
      .references(() => principals.id, { onDelete: "cascade" }),
    /** the exact gateway name, `<server>__<tool>` — never a pattern */
    gatewayName: text("gateway_name").notNull(),
    /** all must hold; empty: any arguments */
    conditions: jsonb("conditions").$type<AllowRuleCondition[]>().notNull().default([]),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** the person behind it (operator, or the creator of the key used); null for a key nobody created */
    createdBy: text("created_by"),
    createdByName: text("created_by_name"),
    /** the call whose approval it was made from, if any */
    sourceCallId: text("source_call_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedByName: text("revoked_by_name"),
  },
  (t) => [index("allow_rules_lookup_idx").on(t.tenantId, t.principalId, t.gatewayName)],
);
