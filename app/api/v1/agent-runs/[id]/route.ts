// GET /api/v1/agent-runs/{id} — one run: its steps so far, its counters, how it ended
import { getAgentRun } from "@/lib/agents/agent-runs";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>("read", async ({ db, tenant, params }) => ({
  run: await getAgentRun(db, { tenantId: tenant.id, id: params.id }),
}));
