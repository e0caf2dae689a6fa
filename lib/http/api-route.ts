import type { Tenant } from "@/db/schema";
import type { Database, DatabaseDriver } from "@/lib/db/client";
import { getDatabase } from "@/lib/db/process-db";
import { toAppError, toErrorBody } from "@/lib/errors";

export type ApiContext<P> = {
  req: Request;
  params: P;
  db: Database;
  driver: DatabaseDriver;
  tenant: Tenant;
};

type RouteArgs<P> = { params: Promise<P> };

/**
 * The one wrapper around every /api/v1 handler: resolves the database and the caller's workspace,
 * runs the handler, and turns any error into the JSON error shape of API.md. A handler returns
 * a Response, or data that becomes a 200 JSON body.
 */
export function apiRoute<P = Record<string, never>>(
  handler: (ctx: ApiContext<P>) => Promise<Response | unknown>,
) {
  return async (req: Request, args: RouteArgs<P>): Promise<Response> => {
    try {
      const { db, driver, defaultTenant } = await getDatabase();
      const result = await handler({ req, params: await args.params, db, driver, tenant: defaultTenant });
      return result instanceof Response ? result : Response.json(result);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  return Response.json({ error: toErrorBody(appError) }, { status: appError.status });
}
