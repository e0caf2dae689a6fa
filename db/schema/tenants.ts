import { pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** A workspace. Every other table is scoped to one. */
export const tenants = pgTable(
  "tenants",
  {
    // Defined inline, not via columns.ts, to avoid an import cycle (columns references tenants).
    id: text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tenants_slug_key").on(t.slug)],
);

export type Tenant = typeof tenants.$inferSelect;
