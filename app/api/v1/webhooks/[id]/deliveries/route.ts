// GET /api/v1/webhooks/{id}/deliveries — its latest deliveries, each with every attempt
import { apiRoute } from "@/lib/http/api-route";
import { listDeliveries } from "@/lib/webhooks/deliveries";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>("manage", async ({ req, db, tenant, params }) => {
  const limit = Number(new URL(req.url).searchParams.get("limit") ?? 50);
  return {
    deliveries: await listDeliveries(db, {
      tenantId: tenant.id,
      webhookId: params.id,
      limit: Number.isFinite(limit) ? limit : 50,
    }),
  };
});
