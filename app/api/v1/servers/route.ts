// GET /api/v1/servers — list the workspace's servers · POST — register one
import { authorityOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { listServers, registerServer } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  servers: await listServers(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, tenant, actor }) => {
  const input = await readJsonBody(req);
  const server = await registerServer(db, { tenantId: tenant.id, input, authority: authorityOf(actor) });
  return Response.json({ server }, { status: 201 });
});
