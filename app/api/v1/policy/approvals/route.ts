// GET · PUT /api/v1/policy/approvals — which effects need approval, self-approval, expiry
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { getApprovalPolicy, putApprovalPolicy } from "@/lib/policy/approval-rules";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  policy: await getApprovalPolicy(db, { tenantId: tenant.id }),
}));

export const PUT = apiRoute("manage", async ({ req, db, tenant, actor }) => ({
  policy: await putApprovalPolicy(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  }),
}));
