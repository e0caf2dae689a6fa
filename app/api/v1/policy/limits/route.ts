// GET · PUT /api/v1/policy/limits — calls per minute, calls in flight and calls waiting for approval,
// per principal and per server (workspace defaults and overrides by name)
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { getLimitsPolicy, putLimitsPolicy } from "@/lib/limits/limits-policy";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  policy: await getLimitsPolicy(db, { tenantId: tenant.id }),
}));

export const PUT = apiRoute("manage", async ({ req, db, tenant, actor }) => ({
  policy: await putLimitsPolicy(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  }),
}));
