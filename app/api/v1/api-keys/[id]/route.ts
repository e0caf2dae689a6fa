// DELETE /api/v1/api-keys/{id} — revoke a key: anything using it gets 401 from the next request
import { auditActorOf } from "@/lib/auth/actor";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string }>("manage", async ({ db, actor, tenant, params }) => {
  await revokeApiKey(db, { tenantId: tenant.id, id: params.id, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
