// GET /api/v1/allow-rules — the workspace's allow rules (active, expired, revoked), newest first
// POST /api/v1/allow-rules — a rule `{principalId, tool, durationMinutes | until, conditions?}`
import { createAllowRule, listAllowRules } from "@/lib/approvals/allow-rules";
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  allowRules: await listAllowRules(db, { tenantId: tenant.id }),
}));

// Whoever may decide approvals may make a rule: it decides later approvals ahead of time.
export const POST = apiRoute("decide", async ({ req, db, actor, tenant }) => {
  const allowRule = await createAllowRule(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  });
  return Response.json({ allowRule }, { status: 201 });
});
