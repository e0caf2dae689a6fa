// POST /api/v1/servers/{name}/refresh — list the catalog again; a new snapshot when it changed
import { apiRoute } from "@/lib/http/api-route";
import { refreshServerCatalog } from "@/lib/servers/server-operations";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ name: string }>("manage", async ({ db, tenant, params }) =>
  refreshServerCatalog(db, { tenantId: tenant.id, name: params.name }),
);
