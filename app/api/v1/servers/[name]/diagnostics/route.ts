// GET /api/v1/servers/{name}/diagnostics — state, last error, exit code/signal, stderr tail, health history
import { apiRoute } from "@/lib/http/api-route";
import { getServerDiagnostics } from "@/lib/servers/server-operations";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ name: string }>("read", async ({ db, tenant, params }) =>
  getServerDiagnostics(db, { tenantId: tenant.id, name: params.name }),
);
