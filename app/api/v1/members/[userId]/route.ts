// PATCH /api/v1/members/{userId} — change a member's role `{role}`
// DELETE /api/v1/members/{userId} — remove a member from the workspace (the account stays)
import { auditActorOf } from "@/lib/auth/actor";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute<{ userId: string }>("manage", async ({ req, db, actor, tenant, params }) => ({
  member: await changeMemberRole(db, {
    tenantId: tenant.id,
    userId: params.userId,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  }),
}));

export const DELETE = apiRoute<{ userId: string }>("manage", async ({ db, actor, tenant, params }) => {
  await removeMember(db, { tenantId: tenant.id, userId: params.userId, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
