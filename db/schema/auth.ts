import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId } from "./columns";

/*
 * Operators (people). users/sessions/accounts/verifications follow better-auth's core schema
 * (the library owns sign-in, password hashing and sessions); memberships and invitations are ours.
 * Operators are not tenant-scoped: one person can belong to several workspaces.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const users = pgTable("users", {
  id: id(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const accounts = pgTable("accounts", {
  id: id(),
  accountId: text("account_id").notNull(),
  providerId: text("provider_id").notNull(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  accessToken: text("access_token"),
  refreshToken: text("refresh_token"),
  idToken: text("id_token"),
  accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
  refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
  scope: text("scope"),
  password: text("password"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const verifications = pgTable("verifications", {
  id: id(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const roles = ["admin", "approver", "viewer"] as const;
export type Role = (typeof roles)[number];

/** An operator's role in one workspace. */
export const memberships = pgTable(
  "memberships",
  {
    id: id(),
    tenantId: tenantId(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: roles }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("memberships_tenant_user_key").on(t.tenantId, t.userId)],
);

/** An invitation link (only the token's hash is stored; the link is shown once). */
export const invitations = pgTable("invitations", {
  id: id(),
  tenantId: tenantId(),
  role: text("role", { enum: roles }).notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
  acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Security audit trail: sign-ins (also failed ones), role changes, keys. tenant_id is null only for
 * events that belong to no workspace (a failed sign-in for an unknown email). The sign-in limits
 * count in sign_in_limits (below), reserved before a password is checked.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: id(),
    tenantId: text("tenant_id"),
    action: text("action").notNull(),
    actorKind: text("actor_kind", { enum: ["operator", "api_key", "system", "anonymous"] }).notNull(),
    actorId: text("actor_id"),
    /** the person's or key's name when it acted: still says who after they are gone */
    actorName: text("actor_name"),
    subject: text("subject"),
    ipAddress: text("ip_address"),
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_tenant_idx").on(t.tenantId, t.createdAt),
    index("audit_events_action_subject_idx").on(t.action, t.subject, t.createdAt),
  ],
);

/**
 * Sign-in allowances (lib/auth/sign-in-limits.ts): one counter per account (`account:<email>`) and
 * one per client address (`address:<ip>`), each attempt reserved here before its password is checked.
 */
export const signInLimits = pgTable("sign_in_limits", {
  key: text("key").primaryKey(),
  attempts: integer("attempts").notNull(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
});
