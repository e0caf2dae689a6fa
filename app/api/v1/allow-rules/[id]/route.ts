// DELETE /api/v1/allow-rules/{id} — revoke a rule (an admin, or its maker): the next matching call waits again
import { revokeAllowRule } from "@/lib/approvals/allow-rules";
import { auditActorOf } from "@/lib/auth/actor";
import { roleCan } from "@/lib/auth/permissions";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string }>("decide", async ({ db, actor, tenant, params }) => ({
  allowRule: await revokeAllowRule(db, {
    tenantId: tenant.id,
    id: params.id,
    by: auditActorOf(actor),
    isAdmin: actor.role !== null && roleCan(actor.role, "manage"),
  }),
}));
