// GET /api/v1/model-connections — the workspace's model endpoints for agent runs · POST — add one (admins)
import { createModelConnection, listModelConnections } from "@/lib/agents/model-connections";
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  modelConnections: await listModelConnections(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, tenant, actor }) => {
  const input = await readJsonBody(req, 16 * 1024);
  const modelConnection = await createModelConnection(db, {
    tenantId: tenant.id,
    input,
    by: auditActorOf(actor),
  });
  return Response.json({ modelConnection }, { status: 201 });
});
