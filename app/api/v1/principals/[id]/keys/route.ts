// POST /api/v1/principals/{id}/keys — a gateway key for the principal, shown once
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { createPrincipalKey } from "@/lib/principals/principal-access";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>("manage", async ({ req, db, actor, tenant, params }) => {
  const created = await createPrincipalKey(db, {
    tenantId: tenant.id,
    principalId: params.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  });
  return Response.json(created, { status: 201 });
});
