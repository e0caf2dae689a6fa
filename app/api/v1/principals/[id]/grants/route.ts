// GET · PUT /api/v1/principals/{id}/grants — the tool patterns a principal may call, replaced as a set
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { replaceGrants } from "@/lib/principals/principal-access";
import { getPrincipal } from "@/lib/principals/principals";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = apiRoute<Params>("read", async ({ db, tenant, params }) => ({
  patterns: (await getPrincipal(db, { tenantId: tenant.id, id: params.id })).grants,
}));

export const PUT = apiRoute<Params>("manage", async ({ req, db, tenant, actor, params }) => ({
  patterns: await replaceGrants(db, {
    tenantId: tenant.id,
    principalId: params.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  }),
}));
