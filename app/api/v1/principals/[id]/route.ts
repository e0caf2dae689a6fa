// GET /api/v1/principals/{id} — one principal · DELETE — remove it with its keys and grants
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { deletePrincipal, getPrincipal } from "@/lib/principals/principals";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = apiRoute<Params>("read", async ({ db, tenant, params }) => ({
  principal: await getPrincipal(db, { tenantId: tenant.id, id: params.id }),
}));

export const DELETE = apiRoute<Params>("manage", async ({ db, tenant, actor, params }) => {
  await deletePrincipal(db, { tenantId: tenant.id, id: params.id, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
