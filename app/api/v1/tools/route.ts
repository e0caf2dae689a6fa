// GET /api/v1/tools?q= — the tool catalog across servers: enforced effect, the server's hints, rules
import { apiRoute } from "@/lib/http/api-route";
import { listGovernedTools } from "@/lib/tools/tools";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) => ({
  tools: await listGovernedTools(db, {
    tenantId: tenant.id,
    q: new URL(req.url).searchParams.get("q") ?? undefined,
  }),
}));
