// GET /api/v1/principals — agents and MCP clients with their grants and keys · POST — create one
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { createPrincipal, listPrincipals } from "@/lib/principals/principals";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  principals: await listPrincipals(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, tenant }) => {
  const principal = await createPrincipal(db, { tenantId: tenant.id, input: await readJsonBody(req) });
  return Response.json({ principal }, { status: 201 });
});
