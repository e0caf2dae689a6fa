// GET /api/v1/api-keys — the workspace's API keys (names, prefixes, scopes; never a key's value)
// POST /api/v1/api-keys — a new key `{name, scopes}`, its value in this answer only
import { auditActorOf } from "@/lib/auth/actor";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  apiKeys: await listApiKeys(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, actor, tenant }) => {
  const created = await createApiKey(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
    instanceOwner: actor.instanceOwner,
  });
  return Response.json(created, { status: 201 });
});
