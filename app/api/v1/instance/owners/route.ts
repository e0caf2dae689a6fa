// GET /api/v1/instance/owners — the instance owners · POST `{email}` — name another (instance owners)
import { addInstanceOwner, listInstanceOwners } from "@/lib/auth/instance-owners";
import { ownerRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const GET = ownerRoute(async ({ db }) => ({ owners: await listInstanceOwners(db) }));

export const POST = ownerRoute(async ({ req, db, authority }) => {
  const owner = await addInstanceOwner(db, { input: await readJsonBody(req), authority });
  return Response.json({ owner }, { status: 201 });
});
