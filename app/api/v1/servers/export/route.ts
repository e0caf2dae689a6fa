// GET /api/v1/servers/export?format=&principal= — a client configuration that points at the gateway
import { apiRoute } from "@/lib/http/api-route";
import { exportClientConfig } from "@/lib/servers/import-export/export-client-config";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) => ({
  export: await exportClientConfig(db, {
    tenantId: tenant.id,
    query: Object.fromEntries(new URL(req.url).searchParams),
  }),
}));
