// GET · DELETE /api/v1/servers/{name}/oauth — an OAuth server's standing; Disconnect (tokens deleted and revoked)
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { disconnect, getOAuthStatus } from "@/lib/oauth/authorization";
import { getServerRowOrThrow } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = apiRoute<Params>("read", async ({ db, tenant, params }) => ({
  oauth: await getOAuthStatus(db, await getServerRowOrThrow(db, { tenantId: tenant.id, name: params.name })),
}));

export const DELETE = apiRoute<Params>("manage", async ({ db, tenant, actor, params }) =>
  disconnect(
    db,
    await getServerRowOrThrow(db, { tenantId: tenant.id, name: params.name }),
    auditActorOf(actor),
  ),
);
