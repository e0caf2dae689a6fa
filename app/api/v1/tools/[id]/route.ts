// GET /api/v1/tools/{id} — one tool · PATCH — set its effect, enabled, approval rule (admins)

import { auditActorOf } from "@/lib/auth/actor";
import { getGovernedTool } from "@/lib/catalog/governed-tools";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { changeTool } from "@/lib/policy/tool-changes";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = apiRoute<Params>("read", async ({ db, tenant, params }) => ({
  tool: await getGovernedTool(db, { tenantId: tenant.id, id: params.id }),
}));

export const PATCH = apiRoute<Params>("manage", async ({ req, db, tenant, actor, params }) => ({
  tool: await changeTool(db, {
    tenantId: tenant.id,
    id: params.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  }),
}));
