import { and, eq, inArray, isNull } from "drizzle-orm";
import { allowRules, grants, mcpServers, tenants, tools } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { log } from "@/lib/observability/log";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { readGatewayNameBudget } from "./gateway-name-budget";
import { toGatewayName } from "./naming";

/**
 * Brings a workspace's stored gateway names in line with the naming rule and its budget — after
 * the budget changed, and once at start-up (names stored by an older rule: dots, over 46
 * characters). One transaction: the tools are renamed, and what names a tool exactly follows it —
 * grants whose pattern is the old name, allow rules not revoked — so nobody loses access. Wildcard
 * patterns (`server__*`, `*`) cover the new names as they did the old. Collisions need no step of
 * their own: they are read from the stored names (read-catalog), so they are recomputed with them.
 * A `policy.changed` (subject "tool") drops every process's cached decisions and makes open
 * gateway sessions list their tools again. Nothing to rename: nothing is written.
 */

export type Rename = { serverName: string; toolName: string; from: string; to: string };

export async function applyGatewayNames(
  db: Database,
  params: { tenantId: string; budget?: number },
): Promise<Rename[]> {
  return db.transaction((tx) => applyGatewayNamesIn(tx, params));
}

/** The same inside a caller's transaction (Settings saves the budget and renames at once). */
export async function applyGatewayNamesIn(
  tx: Queryable,
  params: { tenantId: string; budget?: number },
): Promise<Rename[]> {
  const { tenantId } = params;
  // The server rows save-catalog locks: a discovery in flight finishes first (and is renamed
  // here), one that starts later waits and reads the new budget.
  await tx
    .select({ id: mcpServers.id })
    .from(mcpServers)
    .where(eq(mcpServers.tenantId, tenantId))
    // In one order, so two renamings of a workspace (start-up, a budget save) cannot deadlock.
    .orderBy(mcpServers.id)
    .for("no key update");
  const budget = params.budget ?? (await readGatewayNameBudget(tx, { tenantId }));
  const rows = await tx
    .select({ id: tools.id, name: tools.name, gatewayName: tools.gatewayName, serverName: mcpServers.name })
    .from(tools)
    .innerJoin(mcpServers, eq(mcpServers.id, tools.serverId))
    .where(eq(tools.tenantId, tenantId));
  const renames: (Rename & { id: string })[] = [];
  for (const row of rows) {
    const to = toGatewayName(row.serverName, row.name, budget);
    if (to !== row.gatewayName)
      renames.push({ id: row.id, serverName: row.serverName, toolName: row.name, from: row.gatewayName, to });
  }
  if (renames.length === 0) return [];
  for (const rename of renames) {
    await tx.update(tools).set({ gatewayName: rename.to }).where(eq(tools.id, rename.id));
  }
  const follows = followingNames(rows, renames);
  if (follows.size > 0) await moveExactReferences(tx, { tenantId, follows });
  await recordPolicyChange(tx, { tenantId, subject: "tool", subjectId: null });
  return renames.map(({ id: _id, ...rename }) => rename);
}

/**
 * Old name → new name, for the old names that named one tool only. A name two tools shared was a
 * collision, refused for both: its grant named no tool, and handing it to either once they part
 * would let one server's new tool inherit access meant for another's.
 */
function followingNames(
  rows: readonly { gatewayName: string }[],
  renames: readonly { from: string; to: string }[],
): Map<string, string> {
  const holders = new Map<string, number>();
  for (const row of rows) holders.set(row.gatewayName, (holders.get(row.gatewayName) ?? 0) + 1);
  return new Map(renames.filter((r) => holders.get(r.from) === 1).map((r) => [r.from, r.to]));
}

async function moveExactReferences(
  tx: Queryable,
  params: { tenantId: string; follows: Map<string, string> },
) {
  const { tenantId, follows } = params;
  const oldNames = [...follows.keys()];
  const moved = await tx
    .delete(grants)
    .where(and(eq(grants.tenantId, tenantId), inArray(grants.toolPattern, oldNames)))
    .returning();
  // Deleted then inserted, not updated: names may swap places (a's new name is b's old one), and the
  // unique (principal, pattern) index would refuse a half-done update. A principal that already had
  // the new name keeps one grant of it.
  if (moved.length > 0) {
    await tx
      .insert(grants)
      .values(
        moved.map((grant) => ({
          ...grant,
          toolPattern: follows.get(grant.toolPattern) ?? grant.toolPattern,
        })),
      )
      .onConflictDoNothing();
  }
  const rules = await tx
    .select({ id: allowRules.id, gatewayName: allowRules.gatewayName })
    .from(allowRules)
    .where(
      and(
        eq(allowRules.tenantId, tenantId),
        isNull(allowRules.revokedAt),
        inArray(allowRules.gatewayName, oldNames),
      ),
    );
  // A revoked rule stays as it was: it records what was taken back, under the name it had then.
  for (const rule of rules) {
    const to = follows.get(rule.gatewayName);
    if (to) await tx.update(allowRules).set({ gatewayName: to }).where(eq(allowRules.id, rule.id));
  }
}

/**
 * At start-up, every workspace: names stored by an older rule get the current ones. Cheap when
 * nothing changed (a read per workspace, no write). A workspace that fails is logged, not fatal:
 * its old names keep working until the next start.
 */
export async function applyGatewayNamesEverywhere(db: Database): Promise<number> {
  const workspaces = await db.select({ id: tenants.id }).from(tenants);
  let renamed = 0;
  for (const workspace of workspaces) {
    try {
      renamed += (await applyGatewayNames(db, { tenantId: workspace.id })).length;
    } catch (error) {
      log.error(
        { err: error, tenantId: workspace.id },
        `gateway names of workspace ${workspace.id} not updated`,
      );
    }
  }
  return renamed;
}
