import type { Tenant } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { getDatabase } from "@/lib/db/process-db";
import { type ErrorBody, toAppError, toErrorBody } from "@/lib/errors";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

type ActionContext = { db: Database; tenant: Tenant };

/** The server-action boundary: resolves the workspace, runs one service call, maps AppError once. */
export async function runAction<T>(action: (ctx: ActionContext) => Promise<T>): Promise<ActionResult<T>> {
  try {
    const { db, defaultTenant } = await getDatabase();
    return { ok: true, data: await action({ db, tenant: defaultTenant }) };
  } catch (error) {
    return { ok: false, error: toErrorBody(toAppError(error)) };
  }
}
