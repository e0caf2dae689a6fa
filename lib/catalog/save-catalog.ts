import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { catalogEntries, catalogSnapshots, mcpServers, tools } from "@/db/schema";
import { loadWorkspaceSecrets } from "@/lib/calls/workspace-secrets";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { type EffectClass, isEffectClass } from "@/lib/policy/effects";
import { readGatewayNameBudget } from "./gateway-name-budget";
import {
  type CatalogContents,
  type CatalogDiff,
  canonicalCatalog,
  canonicalJson,
  diffCatalogs,
  emptyDiff,
  entryKeyOf,
  hashCatalog,
  hashToolDefinition,
  withUniqueKeys,
} from "./hashing";
import { toGatewayName } from "./naming";
import { scrubCatalog, scrubText } from "./scrub-catalog";

type TenantServer = { tenantId: string; serverId: string };
/** A database or an open transaction: every query here composes inside a caller's transaction. */
type Queryable = Pick<Database, "select" | "insert" | "update" | "delete">;
type Definition = Record<string, unknown>;

const entryKindOf = {
  resources: "resource",
  resourceTemplates: "resource-template",
  prompts: "prompt",
} as const;

export type SaveCatalogResult = {
  changed: boolean;
  snapshotId: string;
  hash: string;
  diff: CatalogDiff;
  /** Discovery's problems and the entries left out for holding a secret, all scrubbed. */
  problems: string[];
};

// Rows per INSERT: far below PostgreSQL's 65,535 bind parameters even for 5,000 tools.
const INSERT_CHUNK = 500;

/**
 * Stores what discovery found, scrubbed of secret values first (scrub-catalog) — so every hash,
 * snapshot and diff is of what is stored, and a rotated secret is no drift — in one transaction: tools upserted (a changed definition clears the
 * admin's effect — it must be reviewed again), vanished tools marked removed (their grants and call
 * history keep pointing at a row), resources/templates/prompts replaced, and a snapshot written only
 * when the catalog hash moved. The server's gateway names come from its current registered name and
 * the workspace's name budget.
 */
export async function saveCatalog(
  db: Database,
  params: TenantServer & {
    catalog: CatalogContents;
    problems?: readonly string[];
    /** The values to scrub; every secret of the workspace when not given. */
    secrets?: readonly string[];
  },
): Promise<SaveCatalogResult> {
  // Read before the transaction: secrets are decrypted here, not while the server's row is locked.
  const secrets = params.secrets ?? (await loadWorkspaceSecrets(db, { tenantId: params.tenantId }));
  const scrubbed = scrubCatalog(params.catalog, secrets);
  const problems = [...(params.problems ?? []).map((p) => scrubText(p, secrets)), ...scrubbed.problems];
  const saved = await db.transaction(async (tx) => {
    // Two replicas may discover the same server at once: one at a time per server, or both would
    // compare against the same latest snapshot and record the same change twice.
    const [server] = await tx
      .select({ name: mcpServers.name, knownToolEffects: mcpServers.knownToolEffects })
      .from(mcpServers)
      .where(and(eq(mcpServers.id, params.serverId), eq(mcpServers.tenantId, params.tenantId)))
      .for("no key update");
    if (!server) throw new AppError("not_found", "The server was not found.");
    const scoped = {
      tenantId: params.tenantId,
      serverId: params.serverId,
      catalog: withUniqueKeys(scrubbed.catalog),
    };
    // Read after the lock: a budget change renames under the same locks (apply-gateway-names), so
    // this save either finished before it (and is renamed by it) or sees the new budget.
    const budget = await readGatewayNameBudget(tx, { tenantId: params.tenantId });
    await syncTools(tx, {
      ...scoped,
      serverName: server.name,
      budget,
      knownEffects: server.knownToolEffects ?? {},
    });
    // Known effects classify the first catalog only: a tool that appears later is reviewed by a person.
    if (server.knownToolEffects !== null)
      await tx.update(mcpServers).set({ knownToolEffects: null }).where(eq(mcpServers.id, params.serverId));
    await syncEntries(tx, scoped);
    return recordSnapshot(tx, scoped);
  });
  return { ...saved, problems };
}

async function syncTools(
  db: Queryable,
  params: TenantServer & {
    serverName: string;
    /** the workspace's gateway name budget (gateway-name-budget) */
    budget: number;
    catalog: CatalogContents;
    knownEffects: Readonly<Record<string, EffectClass>>;
  },
) {
  const existing = await db
    .select({
      id: tools.id,
      name: tools.name,
      hash: tools.definitionHash,
      gatewayName: tools.gatewayName,
      definition: tools.definition,
      removedAt: tools.removedAt,
    })
    .from(tools)
    .where(eq(tools.serverId, params.serverId));
  const byName = new Map(existing.map((row) => [row.name, row]));
  const incoming = new Set(params.catalog.tools.map((tool) => tool.name));
  const rows = params.catalog.tools
    .map((tool) => ({
      tenantId: params.tenantId,
      serverId: params.serverId,
      name: tool.name,
      gatewayName: toGatewayName(params.serverName, tool.name, params.budget),
      definition: tool as Definition,
      definitionHash: hashToolDefinition(tool),
      // Only a tool stored for the first time: a known effect never overrides a person's decision.
      effect: byName.has(tool.name) ? null : knownEffectOf(params.knownEffects, tool.name),
    }))
    .filter((row) => {
      const prev = byName.get(row.name);
      return (
        !prev ||
        prev.removedAt !== null ||
        prev.hash !== row.definitionHash ||
        prev.gatewayName !== row.gatewayName ||
        canonicalJson(prev.definition) !== canonicalJson(row.definition)
      );
    });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insert(tools)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflictDoUpdate({
        target: [tools.serverId, tools.name],
        set: {
          gatewayName: sql`excluded.gateway_name`,
          definition: sql`excluded.definition`,
          // SET sees the old row: keep the effect only while the defining fields are unchanged.
          effect: sql`case when ${tools.definitionHash} = excluded.definition_hash then ${tools.effect} else null end`,
          definitionHash: sql`excluded.definition_hash`,
          removedAt: null,
          updatedAt: sql`now()`,
        },
      });
  }
  const vanished = existing
    .filter((row) => row.removedAt === null && !incoming.has(row.name))
    .map((row) => row.id);
  if (vanished.length > 0) {
    await db
      .update(tools)
      .set({ removedAt: sql`now()`, updatedAt: sql`now()` })
      .where(inArray(tools.id, vanished));
  }
}

function knownEffectOf(known: Readonly<Record<string, EffectClass>>, name: string): EffectClass | null {
  const effect = Object.hasOwn(known, name) ? known[name] : undefined;
  return isEffectClass(effect) ? effect : null;
}

async function syncEntries(db: Queryable, params: TenantServer & { catalog: CatalogContents }) {
  const existing = await db
    .select({
      id: catalogEntries.id,
      kind: catalogEntries.kind,
      key: catalogEntries.key,
      definition: catalogEntries.definition,
    })
    .from(catalogEntries)
    .where(eq(catalogEntries.serverId, params.serverId));
  const stored = new Map(existing.map((row) => [`${row.kind}\n${row.key}`, row]));
  const seen = new Set<string>();
  const rows = (["resources", "resourceTemplates", "prompts"] as const).flatMap((kind) =>
    (params.catalog[kind] as Definition[]).map((definition) => ({
      tenantId: params.tenantId,
      serverId: params.serverId,
      kind: entryKindOf[kind],
      key: entryKeyOf[kind](definition),
      definition,
    })),
  );
  const changed = rows.filter((row) => {
    const id = `${row.kind}\n${row.key}`;
    seen.add(id);
    const prev = stored.get(id);
    return !prev || canonicalJson(prev.definition) !== canonicalJson(row.definition);
  });
  for (let i = 0; i < changed.length; i += INSERT_CHUNK) {
    await db
      .insert(catalogEntries)
      .values(changed.slice(i, i + INSERT_CHUNK))
      .onConflictDoUpdate({
        target: [catalogEntries.serverId, catalogEntries.kind, catalogEntries.key],
        set: { definition: sql`excluded.definition`, updatedAt: sql`now()` },
      });
  }
  // Unlike tools, nothing refers to these rows: an entry that is gone is simply gone.
  const vanished = existing.filter((row) => !seen.has(`${row.kind}\n${row.key}`)).map((row) => row.id);
  if (vanished.length > 0) await db.delete(catalogEntries).where(inArray(catalogEntries.id, vanished));
}

async function recordSnapshot(
  db: Queryable,
  params: TenantServer & { catalog: CatalogContents },
): Promise<Omit<SaveCatalogResult, "problems">> {
  const canonical = canonicalCatalog(params.catalog);
  const hash = hashCatalog(canonical);
  const [latest] = await db
    .select({ id: catalogSnapshots.id, hash: catalogSnapshots.hash, catalog: catalogSnapshots.catalog })
    .from(catalogSnapshots)
    .where(eq(catalogSnapshots.serverId, params.serverId))
    .orderBy(desc(catalogSnapshots.takenAt))
    .limit(1);
  if (latest?.hash === hash) return { changed: false, snapshotId: latest.id, hash, diff: emptyDiff() };
  const diff = diffCatalogs(latest?.catalog as CatalogContents | undefined, canonical);
  const [inserted] = await db
    .insert(catalogSnapshots)
    .values({ tenantId: params.tenantId, serverId: params.serverId, hash, catalog: canonical, diff })
    .returning({ id: catalogSnapshots.id });
  if (!inserted) throw new Error("The catalog snapshot was not stored.");
  return { changed: true, snapshotId: inserted.id, hash, diff };
}
