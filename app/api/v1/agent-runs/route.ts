// GET /api/v1/agent-runs — the workspace's latest agent runs · POST — start one as a principal (admins)
import { listAgentRuns, startAgentRun } from "@/lib/agents/agent-runs";
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  runs: await listAgentRuns(db, { tenantId: tenant.id }),
}));

export const POST = apiRoute("manage", async ({ req, db, tenant, actor }) => {
  const input = await readJsonBody(req, 128 * 1024);
  const run = await startAgentRun(db, {
    tenantId: tenant.id,
    input,
    by: auditActorOf(actor),
    startedBy: actor.kind === "operator" ? actor.name : `key ${actor.keyName}`,
  });
  return Response.json({ run }, { status: 202 });
});
