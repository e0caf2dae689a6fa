// PUT /api/v1/settings/gateway/name-budget — the longest gateway name the workspace hands out; renames tools to fit
import { putGatewayNameBudget } from "@/lib/gateway/settings/name-budget";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const PUT = apiRoute("manage", async ({ req, db, tenant, actor }) => ({
  settings: await putGatewayNameBudget(db, { tenantId: tenant.id, input: await readJsonBody(req), actor }),
}));
