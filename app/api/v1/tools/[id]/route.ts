// GET /api/v1/tools/{id} — one tool · PATCH — set its effect, enabled, approval rule (admins)

import { getGovernedTool, updateTool } from "@/lib/catalog/governed-tools";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = apiRoute<Params>("read", async ({ db, tenant, params }) => ({
  tool: await getGovernedTool(db, { tenantId: tenant.id, id: params.id }),
}));

export const PATCH = apiRoute<Params>("manage", async ({ req, db, tenant, params }) => ({
  tool: await updateTool(db, { tenantId: tenant.id, id: params.id, input: await readJsonBody(req) }),
}));
