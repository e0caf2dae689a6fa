// POST /api/v1/servers/{name}/reconnect — drop and re-open the connection
import { apiRoute } from "@/lib/http/api-route";
import { reconnectServer } from "@/lib/servers/server-operations";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ name: string }>("manage", async ({ db, tenant, params }) =>
  reconnectServer(db, { tenantId: tenant.id, name: params.name }),
);
