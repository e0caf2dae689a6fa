// DELETE /api/v1/principals/{id}/keys/{keyId} — revoke one of the principal's keys
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { revokePrincipalKey } from "@/lib/principals/principal-access";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string; keyId: string }>(
  "manage",
  async ({ db, actor, tenant, params }) => {
    await revokePrincipalKey(db, {
      tenantId: tenant.id,
      principalId: params.id,
      keyId: params.keyId,
      by: auditActorOf(actor),
    });
    return new Response(null, { status: 204 });
  },
);
