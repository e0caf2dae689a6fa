import { type ApiContext, authenticateRequest, publicRoute } from "./api-route";

/**
 * For the routes an agent uses as well as an operator (calling a tool, reading that call):
 * authenticates like apiRoute, but the role check is the service's, because a principal's
 * gateway key has no dashboard role and is authorized by its grants instead (lib/calls/requester).
 */
export function callerRoute<P = Record<string, never>>(
  handler: (ctx: ApiContext<P>) => Promise<Response | unknown>,
) {
  return publicRoute<P>(async (base) => {
    const actor = await authenticateRequest(base);
    return handler({ ...base, actor, tenant: actor.tenant });
  });
}
