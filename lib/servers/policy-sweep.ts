import { and, eq } from "drizzle-orm";
import { type McpServer, mcpServers, tenants } from "@/db/schema";
import { type AuditActor, changedByOf } from "@/lib/auth/audit";
import type { Database } from "@/lib/db/client";
import { recordEvent } from "@/lib/events/record-event";
import { getEgressPolicy } from "@/lib/policy/egress-policy-store";
import type { EgressPolicy } from "@/lib/policy/egress-schema";
import type { InstancePolicy } from "@/lib/policy/instance-policy-schema";
import { getInstancePolicy } from "@/lib/policy/instance-policy-store";
import { checkServerPolicy, type PolicyRefusal } from "@/lib/policy/server-policy";

/**
 * Servers a policy no longer allows. Found before a narrower policy is saved (the change is refused
 * with their list unless the person says to disable them), and at every start (an upgrade, a policy
 * changed by another process). They are disabled with a diagnostic saying why, never kept running.
 */

export type RefusedServer = {
  id: string;
  tenantId: string;
  name: string;
  workspace: string;
  refusal: PolicyRefusal;
};

export async function findRefusedServers(
  db: Database,
  params: { tenantId?: string; instance?: InstancePolicy; workspace?: EgressPolicy } = {},
): Promise<RefusedServer[]> {
  const instance = params.instance ?? (await getInstancePolicy(db));
  const rows = await db
    .select({ server: mcpServers, workspace: tenants.name })
    .from(mcpServers)
    .innerJoin(tenants, eq(tenants.id, mcpServers.tenantId))
    .where(
      and(
        eq(mcpServers.enabled, true),
        params.tenantId ? eq(mcpServers.tenantId, params.tenantId) : undefined,
      ),
    );
  const workspaces = new Map<string, Promise<EgressPolicy>>();
  const workspaceOf = (tenantId: string) => {
    if (params.workspace && tenantId === params.tenantId) return Promise.resolve(params.workspace);
    const known = workspaces.get(tenantId);
    if (known) return known;
    const policy = getEgressPolicy(db, { tenantId });
    workspaces.set(tenantId, policy);
    return policy;
  };
  const refused: RefusedServer[] = [];
  for (const { server, workspace } of rows) {
    const refusal = await refusalOf(server, { instance, workspace: await workspaceOf(server.tenantId) });
    if (refusal)
      refused.push({ id: server.id, tenantId: server.tenantId, name: server.name, workspace, refusal });
  }
  return refused;
}

async function refusalOf(
  row: McpServer,
  policies: { instance: InstancePolicy; workspace: EgressPolicy },
): Promise<PolicyRefusal | undefined> {
  const decision = await checkServerPolicy(
    policies,
    { ...row, command: row.programPath ?? row.command },
    { ownerLaunch: row.launchApprovedBy !== null },
  );
  // A name that does not resolve now may tomorrow: that is a connect failure, not a policy verdict.
  return decision.kind === "deny" && decision.rule !== "http.dns" ? decision : undefined;
}

/** `by`: who changed the policy (the servers' `server.updated` events say so); Switchboard at start. */
export async function disableRefusedServers(
  db: Database,
  refused: readonly RefusedServer[],
  by: AuditActor = null,
): Promise<void> {
  for (const server of refused) {
    const { refusal } = server;
    const diagnostic = `Disabled: ${refusal.policy === "instance" ? "the instance policy" : "the workspace's egress policy"} no longer allows this server (${refusal.rule}): ${refusal.reason}`;
    await db.transaction(async (tx) => {
      // On the server's own row: a connect attempt failing at the same moment writes its error to
      // the status, and must not bury why the server is off.
      await tx
        .update(mcpServers)
        .set({ enabled: false, disabledReason: diagnostic, updatedAt: new Date() })
        .where(eq(mcpServers.id, server.id));
      const ref = { serverId: server.id, serverName: server.name };
      await recordEvent(tx, {
        tenantId: server.tenantId,
        event: {
          type: "server.disabled_by_policy",
          ...ref,
          policy: refusal.policy,
          rule: refusal.rule,
          reason: refusal.reason,
        },
      });
      // Every process's pool follows configuration changes: this one drops the connection.
      await recordEvent(tx, {
        tenantId: server.tenantId,
        event: { type: "server.updated", ...ref, by: changedByOf(by) },
      });
    });
  }
}

/** At start: whatever the current policies refuse is disabled before anything connects. */
export async function disableServersRefusedAtStart(db: Database): Promise<RefusedServer[]> {
  const refused = await findRefusedServers(db);
  await disableRefusedServers(db, refused);
  return refused;
}

/** A server as a person finds it: `files (in Default workspace)`. */
export const labelOfRefused = (server: RefusedServer) => `${server.name} (in ${server.workspace})`;

/** `?disableAffected=true` on a policy PUT: disable the servers it refuses rather than refuse it. */
export const readDisableAffected = (req: Request) =>
  new URL(req.url).searchParams.get("disableAffected") === "true";
