// GET · PATCH · DELETE /api/v1/servers/{name} — one server (secrets shown as set/unset only)
import { auditActorOf, authorityOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { deleteServer, getServer, updateServer } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = apiRoute<Params>("read", async ({ db, tenant, params }) => ({
  server: await getServer(db, { tenantId: tenant.id, name: params.name }),
}));

export const PATCH = apiRoute<Params>("manage", async ({ req, db, tenant, actor, params }) => ({
  server: await updateServer(db, {
    tenantId: tenant.id,
    name: params.name,
    patch: await readJsonBody(req),
    authority: authorityOf(actor),
  }),
}));

export const DELETE = apiRoute<Params>("manage", async ({ db, tenant, actor, params }) => {
  await deleteServer(db, { tenantId: tenant.id, name: params.name, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
