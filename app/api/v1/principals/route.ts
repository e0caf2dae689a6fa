// GET /api/v1/principals — agents and MCP clients with their grants and keys · POST — create one
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { createPrincipal, listPrincipals } from "@/lib/principals/principals";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  principals: await listPrincipals(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, tenant, actor }) => {
  const principal = await createPrincipal(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  });
  return Response.json({ principal }, { status: 201 });
});
