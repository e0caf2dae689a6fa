// DELETE /api/v1/invitations/{id} — revoke a pending invitation: its link stops working at once
import { auditActorOf } from "@/lib/auth/actor";
import { revokeInvitation } from "@/lib/auth/invitations";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string }>("manage", async ({ db, actor, tenant, params }) => {
  await revokeInvitation(db, { tenantId: tenant.id, id: params.id, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
