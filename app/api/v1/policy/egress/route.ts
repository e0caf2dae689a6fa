// GET · PUT /api/v1/policy/egress — which commands and hosts this workspace's servers may reach
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { getEgressPolicy, putEgressPolicy } from "@/lib/policy/egress-policy-store";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  policy: await getEgressPolicy(db, { tenantId: tenant.id }),
}));

export const PUT = apiRoute("manage", async ({ req, db, tenant }) => ({
  policy: await putEgressPolicy(db, { tenantId: tenant.id, input: await readJsonBody(req) }),
}));
