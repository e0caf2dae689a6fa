// GET /api/v1/servers/{name}/snapshots — the server's discovered snapshots
import { apiRoute } from "@/lib/http/api-route";
import { getServerCatalog } from "@/lib/servers/server-operations";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ name: string }>("read", async ({ db, tenant, params }) =>
  getServerCatalog(db, { tenantId: tenant.id, name: params.name, part: "snapshots" }),
);
