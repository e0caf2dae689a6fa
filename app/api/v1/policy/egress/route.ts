// GET · PUT /api/v1/policy/egress — which commands and hosts this workspace's servers may reach,
// within the instance policy (`effective` is the two together); PUT ?disableAffected=true disables
// the servers a narrower policy refuses instead of answering 409
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { effectivePolicy } from "@/lib/policy/effective-policy";
import { updateWorkspaceEgressPolicy } from "@/lib/servers/policy-changes";
import { readDisableAffected } from "@/lib/servers/policy-sweep";
import { loadServerPolicies } from "@/lib/servers/server-policy-check";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => {
  const { instance, workspace } = await loadServerPolicies(db, { tenantId: tenant.id });
  return { policy: workspace, effective: effectivePolicy(instance, workspace) };
});

export const PUT = apiRoute("manage", async ({ req, db, tenant, actor }) =>
  updateWorkspaceEgressPolicy(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    disableAffected: readDisableAffected(req),
    by: auditActorOf(actor),
  }),
);
