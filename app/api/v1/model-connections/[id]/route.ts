// DELETE /api/v1/model-connections/{id} — remove a model endpoint (its runs stay, with its name)
import { deleteModelConnection } from "@/lib/agents/model-connections";
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string }>("manage", async ({ db, tenant, actor, params }) => {
  await deleteModelConnection(db, { tenantId: tenant.id, id: params.id, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
