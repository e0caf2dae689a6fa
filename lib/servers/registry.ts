import { and, eq } from "drizzle-orm";
import { type EffectClass, type McpServer, mcpServers, type NewMcpServer, serverStatus } from "@/db/schema";
import { type AuditActor, auditedBy, changedByOf, recordAudit } from "@/lib/auth/audit";
import { type Authority, approverOf } from "@/lib/auth/instance-owners";
import type { Database } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { followServerRename } from "@/lib/limits/limits-policy";
import { getInstancePolicy } from "@/lib/policy/instance-policy-store";
import { canReadFromEnv, type ServerPermit } from "@/lib/policy/server-policy";
import { findSetSecretNames } from "@/lib/secrets/secrets";
import { parseOrThrow } from "@/lib/validation";
import { type ServerConfig, serverConfigSchema, serverPatchSchema } from "./config-schema";
import { readReplicaStatus } from "./replica-status";
import { type ServerDto, secretNamesOf, toServerDto } from "./server-dto";
import { assertServerAllowed } from "./server-policy-check";

type TenantScope = { tenantId: string };

export async function listServers(db: Database, { tenantId }: TenantScope): Promise<ServerDto[]> {
  const rows = await db
    .select({ server: mcpServers, status: { state: serverStatus.state, lastError: serverStatus.lastError } })
    .from(mcpServers)
    .leftJoin(serverStatus, eq(serverStatus.serverId, mcpServers.id))
    .where(eq(mcpServers.tenantId, tenantId))
    .orderBy(mcpServers.name);
  const setSecrets = await findSetSecretNames(db, {
    tenantId,
    names: rows.flatMap((r) => secretNamesOf(r.server)),
  });
  const canReadEnv = await envReadability(db);
  const { rowsByServer, liveReplicaIds } = await readReplicaStatus(db, { tenantId });
  return rows.map((r) =>
    toServerDto(r.server, {
      setSecrets,
      canReadEnv,
      status: r.status ?? undefined,
      replicas: { rows: rowsByServer.get(r.server.id) ?? [], liveReplicaIds },
    }),
  );
}

export async function getServer(db: Database, params: TenantScope & { name: string }): Promise<ServerDto> {
  const [row] = await db
    .select({ server: mcpServers, status: { state: serverStatus.state, lastError: serverStatus.lastError } })
    .from(mcpServers)
    .leftJoin(serverStatus, eq(serverStatus.serverId, mcpServers.id))
    .where(and(eq(mcpServers.tenantId, params.tenantId), eq(mcpServers.name, params.name)));
  if (!row) throw serverNotFound(params.name);
  const setSecrets = await findSetSecretNames(db, {
    tenantId: params.tenantId,
    names: secretNamesOf(row.server),
  });
  const canReadEnv = await envReadability(db);
  const { rowsByServer, liveReplicaIds } = await readReplicaStatus(db, {
    tenantId: params.tenantId,
    serverId: row.server.id,
  });
  return toServerDto(row.server, {
    setSecrets,
    canReadEnv,
    status: row.status ?? undefined,
    replicas: { rows: rowsByServer.get(row.server.id) ?? [], liveReplicaIds },
  });
}

export async function registerServer(
  db: Database,
  params: TenantScope & {
    input: unknown;
    authority: Authority;
    /** Switchboard's own knowledge of a shipped server's tools (lib/demo): never a caller's input. */
    knownToolEffects?: Record<string, EffectClass>;
  },
): Promise<ServerDto> {
  const config = parseOrThrow(serverConfigSchema, params.input, "The server configuration");
  const { instanceOwner } = params.authority;
  const permit = await assertServerAllowed(db, {
    tenantId: params.tenantId,
    config,
    ownerLaunch: instanceOwner,
  });
  const launch = launchColumns(config, permit, instanceOwner ? approverOf(params.authority) : null);
  const [row] = await db
    .insert(mcpServers)
    .values({
      tenantId: params.tenantId,
      ...toColumns(config),
      ...launch,
      knownToolEffects: params.knownToolEffects ?? null,
    })
    .onConflictDoNothing({ target: [mcpServers.tenantId, mcpServers.name] })
    .returning({ id: mcpServers.id, name: mcpServers.name });
  if (!row) throw nameTaken(config.name);
  await recordServerChange(db, {
    tenantId: params.tenantId,
    type: "server.registered",
    server: row,
    by: params.authority.by,
    detail: config.transport,
  });
  return getServer(db, { tenantId: params.tenantId, name: row.name });
}

/**
 * PATCH: the stored configuration merged with the given fields, validated as a whole. A launch an
 * instance owner saved stays theirs while nobody else changes it (a new display name keeps it).
 */
export async function updateServer(
  db: Database,
  params: TenantScope & { name: string; patch: unknown; authority: Authority },
): Promise<ServerDto> {
  const patch = parseOrThrow(serverPatchSchema, params.patch, "The update");
  const current = await getServerRowOrThrow(db, params);
  const base = toConfigInput(current);
  const transportChanged = patch.transport !== undefined && patch.transport !== current.transport;
  const merged = { ...(transportChanged ? commonPart(base) : base), ...patch };
  const config = parseOrThrow(serverConfigSchema, merged, "The server configuration");
  const approvedBy = params.authority.instanceOwner
    ? approverOf(params.authority)
    : isSameLaunch(current, config)
      ? current.launchApprovedBy
      : null;
  const permit = await assertServerAllowed(db, {
    tenantId: params.tenantId,
    config,
    ownerLaunch: approvedBy !== null,
  });
  try {
    await db
      .update(mcpServers)
      .set({
        ...toColumns(config),
        ...launchColumns(config, permit, approvedBy),
        // Enabled again (the check above passed): why a policy once disabled it is history.
        disabledReason: config.enabled ? null : current.disabledReason,
        updatedAt: new Date(),
      })
      .where(eq(mcpServers.id, current.id));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(config.name);
    throw error;
  }
  if (config.name !== current.name)
    await followServerRename(db, {
      tenantId: params.tenantId,
      from: current.name,
      to: config.name,
      by: params.authority.by,
    });
  await recordServerChange(db, {
    tenantId: params.tenantId,
    type: "server.updated",
    server: { id: current.id, name: config.name },
    by: params.authority.by,
    // Which fields, never their values: a URL or an argument can carry a token.
    detail: `changed ${Object.keys(patch).join(", ") || "nothing"}${config.name !== current.name ? ` (was ${current.name})` : ""}`,
  });
  return getServer(db, { tenantId: params.tenantId, name: config.name });
}

export async function deleteServer(
  db: Database,
  params: TenantScope & { name: string; by: AuditActor },
): Promise<void> {
  const deleted = await db
    .delete(mcpServers)
    .where(and(eq(mcpServers.tenantId, params.tenantId), eq(mcpServers.name, params.name)))
    .returning({ id: mcpServers.id });
  const [row] = deleted;
  if (!row) throw serverNotFound(params.name);
  await recordServerChange(db, {
    tenantId: params.tenantId,
    type: "server.deleted",
    server: { id: row.id, name: params.name },
    by: params.by,
    detail: null,
  });
}

/** The audit entry (who, which server by name) and the event every process's runtime follows. */
async function recordServerChange(
  db: Database,
  params: TenantScope & {
    type: "server.registered" | "server.updated" | "server.deleted";
    server: { id: string; name: string };
    by: AuditActor;
    detail: string | null;
  },
): Promise<void> {
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: params.type,
    ...auditedBy(params.by),
    subject: params.server.name,
    detail: params.detail,
  });
  await recordEvent(db, {
    tenantId: params.tenantId,
    event: {
      type: params.type,
      serverId: params.server.id,
      serverName: params.server.name,
      by: changedByOf(params.by),
    },
  });
}

export async function getServerRowOrThrow(
  db: Database,
  params: TenantScope & { name: string },
): Promise<McpServer> {
  const [row] = await db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, params.tenantId), eq(mcpServers.name, params.name)));
  if (!row) throw serverNotFound(params.name);
  return row;
}

async function envReadability(db: Database): Promise<(name: string) => boolean> {
  const instance = await getInstancePolicy(db);
  return (name) => canReadFromEnv(instance, name);
}

const serverNotFound = (name: string) => new AppError("not_found", `There is no server named "${name}".`);
const nameTaken = (name: string) =>
  new AppError(
    "conflict",
    `A server named "${name}" already exists. Pick another name or edit that server.`,
    {
      fieldErrors: { name: ["This name is already taken."] },
    },
  );

type ColumnValues = Omit<
  NewMcpServer,
  "id" | "tenantId" | "createdAt" | "updatedAt" | "programPath" | "launchApprovedBy" | "disabledReason"
>;

function toColumns(config: ServerConfig): ColumnValues {
  const common = {
    name: config.name,
    displayName: config.displayName,
    description: config.description,
    transport: config.transport,
    enabled: config.enabled,
    connectTimeoutMs: config.connectTimeoutMs,
    callTimeoutMs: config.callTimeoutMs,
    healthIntervalSeconds: config.healthIntervalSeconds,
    resourceReadsNeedApproval: config.resourceReadsNeedApproval,
  };
  if (config.transport === "stdio") {
    const { command, args, cwd, env } = config;
    return { ...common, command, args, cwd, env, url: null, headers: {}, auth: { type: "none" } };
  }
  const { url, headers, auth } = config;
  return { ...common, url, headers, auth, command: null, args: [], cwd: null, env: {} };
}

/** What runs, as the policy check resolved it, and who (as an owner) set it. */
function launchColumns(config: ServerConfig, permit: ServerPermit, approvedBy: string | null) {
  return config.transport === "stdio"
    ? { programPath: permit.programPath ?? null, launchApprovedBy: approvedBy }
    : { programPath: null, launchApprovedBy: null };
}

/** Whether a configuration starts the same program, with the same arguments, in the same folder. */
export function isSameLaunch(row: McpServer, config: ServerConfig): boolean {
  return (
    row.transport === "stdio" &&
    config.transport === "stdio" &&
    row.command === config.command &&
    row.cwd === config.cwd &&
    JSON.stringify(row.args) === JSON.stringify(config.args)
  );
}

function commonPart(input: Record<string, unknown>) {
  const { command, args, cwd, env, url, headers, auth, ...common } = input;
  return common;
}

/** The stored row in the request shape, so a PATCH can be validated like a registration. */
function toConfigInput(row: McpServer): Record<string, unknown> {
  const common = {
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    transport: row.transport,
    enabled: row.enabled,
    connectTimeoutMs: row.connectTimeoutMs,
    callTimeoutMs: row.callTimeoutMs,
    healthIntervalSeconds: row.healthIntervalSeconds,
    resourceReadsNeedApproval: row.resourceReadsNeedApproval,
  };
  return row.transport === "stdio"
    ? { ...common, command: row.command, args: row.args, cwd: row.cwd, env: row.env }
    : { ...common, url: row.url, headers: row.headers, auth: row.auth };
}
