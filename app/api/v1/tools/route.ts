// GET /api/v1/tools?q=&server=&effect=&status=&limit=&cursor= — the tool catalog across servers, a page
// at a time · PATCH — change many tools at once (admins)

import { auditActorOf } from "@/lib/auth/actor";
import { listGovernedToolsPage } from "@/lib/catalog/governed-tools";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { changeTools } from "@/lib/policy/tool-changes";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) =>
  listGovernedToolsPage(db, {
    tenantId: tenant.id,
    query: Object.fromEntries(new URL(req.url).searchParams),
  }),
);

/** All or nothing: one refused change (an unknown id, a bad field) leaves every tool as it was. */
export const PATCH = apiRoute("manage", async ({ req, db, tenant, actor }) => ({
  tools: await changeTools(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  }),
}));
