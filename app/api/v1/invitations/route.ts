// GET /api/v1/invitations — links not yet used, revoked or expired (admins only)
// POST /api/v1/invitations — an invitation link `{role}` for one person, shown in this answer only
import { auditActorOf } from "@/lib/auth/actor";
import { createInvitation, listPendingInvitations } from "@/lib/auth/invitations";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const GET = apiRoute("manage", async ({ db, tenant }) => ({
  invitations: await listPendingInvitations(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, actor, tenant }) => {
  const invitation = await createInvitation(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  });
  return Response.json(invitation, { status: 201 });
});
