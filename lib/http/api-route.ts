import { type Actor, authorityOf, resolveActor } from "@/lib/auth/actor";
import { type Authority, assertInstanceOwner } from "@/lib/auth/instance-owners";
import { assertRoleCan, type Permission } from "@/lib/auth/permissions";
import type { Database, DatabaseDriver } from "@/lib/db/client";
import { toAppError, toErrorBody } from "@/lib/errors";
import { traceCarrierOf, traceRequest, withSpan } from "@/lib/observability/traces";
import { getDatabase } from "@/lib/runtime/process-db";

export type PublicContext<P> = { req: Request; params: P; db: Database; driver: DatabaseDriver };
export type ApiContext<P> = PublicContext<P> & { actor: Actor; tenant: Actor["tenant"] };

type RouteArgs<P> = { params: Promise<P> };
type Handler<C> = (ctx: C) => Promise<Response | unknown>;

/**
 * The one wrapper around every /api/v1 handler: authenticates the caller (API key or session),
 * checks the permission the route declares, runs the handler in the caller's workspace, and turns
 * any error into the one JSON error shape (`{error: {code, message, fieldErrors?}}`, see /api/v1/openapi.json). A handler returns a Response, or data for a 200.
 */
export function apiRoute<P = Record<string, never>>(permission: Permission, handler: Handler<ApiContext<P>>) {
  return wrap<P, ApiContext<P>>(async (base) => {
    const actor = await authenticateRequest(base);
    assertRoleCan(actor.role, permission);
    return { ...base, actor, tenant: actor.tenant };
  }, handler);
}

/**
 * Instance routes (Settings → Instance): the caller must hold instance authority — an owner's
 * session, or an owner key — whatever their role in the workspace.
 */
export function ownerRoute<P = Record<string, never>>(
  handler: Handler<ApiContext<P> & { authority: Authority }>,
) {
  return wrap<P, ApiContext<P> & { authority: Authority }>(async (base) => {
    const actor = await authenticateRequest(base);
    const authority = authorityOf(actor);
    assertInstanceOwner(authority);
    return { ...base, actor, tenant: actor.tenant, authority };
  }, handler);
}

/** Routes anyone may call (liveness). */
export function publicRoute<P = Record<string, never>>(handler: Handler<PublicContext<P>>) {
  return wrap<P, PublicContext<P>>(async (base) => base, handler);
}

function wrap<P, C>(prepare: (base: PublicContext<P>) => Promise<C>, handler: Handler<C>) {
  return (req: Request, args: RouteArgs<P>): Promise<Response> => {
    // One trace per REST call, continuing the caller's traceparent (lib/observability/traces).
    const attributes = { "http.request.method": req.method, "url.path": new URL(req.url).pathname };
    return traceRequest("switchboard.rest.request", traceCarrierOf(req.headers), attributes, async (span) => {
      const response = await answer(req, args);
      span?.setAttribute("http.response.status_code", response.status);
      return response;
    });
  };

  async function answer(req: Request, args: RouteArgs<P>): Promise<Response> {
    try {
      const { db, driver } = await getDatabase();
      const ctx = await prepare({ req, params: await args.params, db, driver });
      const result = await handler(ctx);
      return result instanceof Response ? result : Response.json(result);
    } catch (error) {
      return errorResponse(error);
    }
  }
}

/** The caller (API key or session), in the trace's authenticate span. */
export function authenticateRequest(base: PublicContext<unknown>): Promise<Actor> {
  return withSpan("switchboard.authenticate", {}, async (span) => {
    const actor = await resolveActor(base.db, base.req.headers);
    span?.setAttribute("switchboard.workspace.id", actor.tenant.id);
    return actor;
  });
}

export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  const headers: Record<string, string> =
    appError.code === "unauthenticated" ? { "WWW-Authenticate": 'Bearer realm="switchboard"' } : {};
  if (appError.retryAfterSeconds !== undefined) headers["Retry-After"] = String(appError.retryAfterSeconds);
  return Response.json({ error: toErrorBody(appError) }, { status: appError.status, headers });
}
