import { and, desc, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { apiKeys, auditEvents, memberships, users } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";

/** Reading the audit trail (lib/auth/audit.ts writes it): what a workspace's admins may see. */

const AUDIT_PAGE_SIZE = 50;

export const auditQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: "limit must be a number." })
    .int()
    .min(1, { error: "limit must be at least 1." })
    .max(200, { error: "limit can be at most 200." })
    .default(AUDIT_PAGE_SIZE),
  cursor: z.string().min(1).max(100).optional().meta({ description: "`nextCursor` of the page before." }),
  action: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]+)?$/, {
      error: 'action is an action ("member.invited") or a group ("member").',
    })
    .optional()
    .meta({ description: 'An action ("member.invited") or a group ("member").' }),
});

export type AuditEntryDto = {
  id: string;
  at: string;
  action: string;
  /** name: the person's, or the API key's; null for Switchboard itself and the anonymous */
  actor: { kind: string; id: string | null; name: string | null };
  /** what it was done to: the person or key by name where the id is known, else as recorded */
  subject: string | null;
  detail: string | null;
  ipAddress: string | null;
};

/** `nextCursor`: pass it as `cursor` for the older entries; null when there are none. */
export type AuditPage = { entries: AuditEntryDto[]; nextCursor: string | null };

const actorUser = alias(users, "actor_user");
const actorKey = alias(apiKeys, "actor_key");
const subjectUser = alias(users, "subject_user");
const subjectKey = alias(apiKeys, "subject_key");

/**
 * The workspace's entries, newest first: what happened in it, and its members' own sign-ins,
 * sign-outs and failed sign-ins (recorded with no workspace: an account belongs to none). Another
 * workspace's entries never show, nor attempts on emails that are not this workspace's members.
 */
export async function listAuditEntries(
  db: Database,
  params: { tenantId: string; query: unknown },
): Promise<AuditPage> {
  const query = parseOrThrow(auditQuerySchema, params.query, "The audit query");
  const memberIds = db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(eq(memberships.tenantId, params.tenantId));
  const memberEmails = db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.tenantId, params.tenantId));
  const filters: (SQL | undefined)[] = [
    or(
      eq(auditEvents.tenantId, params.tenantId),
      and(
        isNull(auditEvents.tenantId),
        or(inArray(auditEvents.actorId, memberIds), inArray(auditEvents.subject, memberEmails)),
      ),
    ),
    // Older than the cursor's entry, compared in the database's own precision (a millisecond
    // rounded in JavaScript could skip entries of the same millisecond).
    query.cursor
      ? sql`(${auditEvents.createdAt}, ${auditEvents.id}) < (select created_at, id from audit_events where id = ${query.cursor})`
      : undefined,
    query.action
      ? query.action.includes(".")
        ? eq(auditEvents.action, query.action)
        : // a group: every action is "<group>.<what>" (starts_with: "_" would be a LIKE wildcard)
          sql`starts_with(${auditEvents.action}, ${`${query.action}.`})`
      : undefined,
  ];
  const rows = await db
    .select({
      event: auditEvents,
      actorUserName: actorUser.name,
      actorKeyName: actorKey.name,
      subjectUserEmail: subjectUser.email,
      subjectKeyName: subjectKey.name,
    })
    .from(auditEvents)
    .leftJoin(actorUser, and(eq(auditEvents.actorKind, "operator"), eq(actorUser.id, auditEvents.actorId)))
    .leftJoin(actorKey, and(eq(auditEvents.actorKind, "api_key"), eq(actorKey.id, auditEvents.actorId)))
    .leftJoin(subjectUser, eq(subjectUser.id, auditEvents.subject))
    .leftJoin(subjectKey, eq(subjectKey.id, auditEvents.subject))
    .where(and(...filters))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(query.limit + 1);
  if (query.cursor && rows.length === 0) await assertKnownCursor(db, filters[0], query.cursor);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({
      id: row.event.id,
      at: row.event.createdAt.toISOString(),
      action: row.event.action,
      actor: {
        kind: row.event.actorKind,
        id: row.event.actorId,
        // The name as it is now, else as it was when it acted (the person or key may be gone).
        name: row.actorUserName ?? row.actorKeyName ?? row.event.actorName,
      },
      subject: subjectOf(row),
      detail: row.event.detail,
      ipAddress: row.event.ipAddress,
    })),
    nextCursor: rows.length > query.limit && last ? last.event.id : null,
  };
}

function subjectOf(row: {
  event: { action: string; subject: string | null };
  subjectUserEmail: string | null;
  subjectKeyName: string | null;
}): string | null {
  if (row.subjectUserEmail) return row.subjectUserEmail;
  if (row.subjectKeyName) return `key ${row.subjectKeyName}`;
  if (row.event.subject && row.event.action.startsWith("member.invit"))
    return `invitation ${row.event.subject}`;
  return row.event.subject;
}

/** An empty older page is an answer only for a cursor this log gave out; any other is a 400. */
async function assertKnownCursor(db: Database, visible: SQL | undefined, cursor: string): Promise<void> {
  const [known] = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(visible, eq(auditEvents.id, cursor)));
  if (!known) {
    throw new AppError("validation", "The cursor is not valid; use nextCursor from the previous page.", {
      fieldErrors: { cursor: ["Not a cursor returned by this API."] },
    });
  }
}
