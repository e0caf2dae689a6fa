// GET /api/v1/webhooks — the workspace's webhooks (URLs masked) · POST — add one (its secret is shown once)
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";

export const dynamic = "force-dynamic";

export const GET = apiRoute("manage", async ({ db, tenant }) => ({
  webhooks: await listWebhooks(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, tenant, actor }) => {
  const input = await readJsonBody(req, 16 * 1024);
  const created = await createWebhook(db, { tenantId: tenant.id, input, by: auditActorOf(actor) });
  return Response.json(created, { status: 201 });
});
