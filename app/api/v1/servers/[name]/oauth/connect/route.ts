// POST /api/v1/servers/{name}/oauth/connect — start an authorization; the operator's browser opens the URL
import { apiRoute } from "@/lib/http/api-route";
import { startAuthorization } from "@/lib/oauth/authorization";
import { readConnectRequest, starterOf } from "@/lib/oauth/connect-request";
import { getServerRowOrThrow } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ name: string }>("manage", async ({ req, db, tenant, actor, params }) => {
  const { scope } = await readConnectRequest(req);
  const row = await getServerRowOrThrow(db, { tenantId: tenant.id, name: params.name });
  return startAuthorization(db, row, { scope, starter: starterOf(actor) });
});
