// POST /api/v1/servers/{name}/health-check — probe now; the health result with latency and error
import { apiRoute } from "@/lib/http/api-route";
import { checkServerHealth } from "@/lib/servers/server-operations";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ name: string }>("manage", async ({ db, tenant, params }) =>
  checkServerHealth(db, { tenantId: tenant.id, name: params.name }),
);
