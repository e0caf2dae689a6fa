import { headers } from "next/headers";
import { type Actor, resolveOperator } from "@/lib/auth/actor";
import { assertRoleCan, type Permission } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { type ErrorBody, toAppError, toErrorBody } from "@/lib/errors";
import { getDatabase } from "@/lib/runtime/process-db";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

export type ActionContext = { db: Database; actor: Actor & { kind: "operator" }; tenant: Actor["tenant"] };

/**
 * The server-action boundary: authenticates the operator from the session cookie, checks the
 * permission, runs one service call in their workspace and maps AppError once. (Next.js itself
 * rejects cross-origin action posts.)
 */
export async function runAction<T>(
  permission: Permission,
  action: (ctx: ActionContext) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    const { db } = await getDatabase();
    const actor = await resolveOperator(db, await headers());
    assertRoleCan(actor.role, permission);
    return { ok: true, data: await action({ db, actor, tenant: actor.tenant }) };
  } catch (error) {
    return { ok: false, error: toErrorBody(toAppError(error)) };
  }
}

/** For actions that run before anyone is signed in (sign-in, first-run setup, accepting an invitation). */
export async function runPublicAction<T>(action: (ctx: { db: Database; headers: Headers }) => Promise<T>) {
  try {
    const { db } = await getDatabase();
    return { ok: true as const, data: await action({ db, headers: await headers() }) };
  } catch (error) {
    return { ok: false as const, error: toErrorBody(toAppError(error)) };
  }
}
