// POST /api/v1/webhooks/{id}/test — queue a test delivery (sent, and retried, like any other)
import { apiRoute } from "@/lib/http/api-route";
import { enqueueTestDelivery } from "@/lib/webhooks/deliveries";
import { nudgeWebhookWorker } from "@/lib/webhooks/delivery-worker";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>("manage", async ({ db, tenant, params }) => {
  const delivery = await enqueueTestDelivery(db, { tenantId: tenant.id, webhookId: params.id });
  nudgeWebhookWorker();
  return Response.json({ delivery }, { status: 202 });
});
