// POST /api/v1/agent-runs/{id}/cancel — stop a running run; its in-flight call is cancelled downstream
import { cancelAgentRun } from "@/lib/agents/agent-runs";
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>("manage", async ({ db, tenant, actor, params }) => ({
  run: await cancelAgentRun(db, {
    tenantId: tenant.id,
    id: params.id,
    by: auditActorOf(actor),
    byName: actor.kind === "operator" ? actor.name : `key ${actor.keyName}`,
  }),
}));
