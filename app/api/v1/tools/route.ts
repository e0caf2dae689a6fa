// GET /api/v1/tools?q= — the tool catalog across servers: enforced effect, the server's hints, rules

import { listGovernedTools } from "@/lib/catalog/governed-tools";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) => ({
  tools: await listGovernedTools(db, {
    tenantId: tenant.id,
    q: new URL(req.url).searchParams.get("q") ?? undefined,
  }),
}));
