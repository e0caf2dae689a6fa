// GET /api/v1/webhooks/{id} — one webhook · PATCH — change its name, URL, events or enabled · DELETE — remove it
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/webhooks";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = apiRoute<Params>("manage", async ({ db, tenant, params }) => ({
  webhook: await getWebhook(db, { tenantId: tenant.id, id: params.id }),
}));

export const PATCH = apiRoute<Params>("manage", async ({ req, db, tenant, actor, params }) => {
  const input = await readJsonBody(req, 16 * 1024);
  const webhook = await updateWebhook(db, {
    tenantId: tenant.id,
    id: params.id,
    input,
    by: auditActorOf(actor),
  });
  return { webhook };
});

export const DELETE = apiRoute<Params>("manage", async ({ db, tenant, actor, params }) => {
  await deleteWebhook(db, { tenantId: tenant.id, id: params.id, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
