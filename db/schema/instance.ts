import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/*
 * The instance: the machine Switchboard runs on, above every workspace. Its owners (the person who
 * completed first-run setup, and whoever an owner names) set the instance policy: which programs
 * stdio servers may launch, which variables `fromEnv` may read, the egress floor, and who may create
 * workspaces. Workspace roles never reach here.
 */

export const instanceOwners = pgTable("instance_owners", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** the owner who named them (null: first-run setup, or an owner since removed) */
  addedBy: text("added_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One row (id "instance"), validated by lib/policy/instance-policy-schema.ts; absent = the default. */
export const instancePolicies = pgTable("instance_policies", {
  id: text("id").primaryKey(),
  policy: jsonb("policy").$type<Record<string, unknown>>().notNull(),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row (id "instance") once first-run setup is done, inserted by setup alone (lib/auth/setup.ts):
 * of two setups at once only one can insert it, and accounts made any other way never count as set up.
 */
export const instanceSetup = pgTable("instance_setup", {
  id: text("id").primaryKey(),
  completedBy: text("completed_by").references(() => users.id, { onDelete: "set null" }),
  completedAt: timestamp("completed_at", { withTimezone: true }).notNull().defaultNow(),
});
