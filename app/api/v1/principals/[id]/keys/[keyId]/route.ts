// DELETE /api/v1/principals/{id}/keys/{keyId} — revoke one of the principal's keys
import { actorId } from "@/lib/auth/actor";
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
      actorId: actor.kind === "operator" ? actorId(actor) : null,
    });
    return new Response(null, { status: 204 });
  },
);
