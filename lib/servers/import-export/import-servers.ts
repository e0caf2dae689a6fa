import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { type McpServer, mcpServers } from "@/db/schema";
import type { Authority } from "@/lib/auth/instance-owners";
import { canonicalJson } from "@/lib/catalog/hashing";
import type { Database } from "@/lib/db/client";
import { type ErrorBody, isAppError, toErrorBody } from "@/lib/errors";
import { putSecret, readSecretValue } from "@/lib/secrets/secrets";
import { type ServerConfig, serverConfigSchema, type Transport } from "@/lib/servers/config-schema";
import { isSameLaunch, registerServer, updateServer } from "@/lib/servers/registry";
import { assertServerAllowed } from "@/lib/servers/server-policy-check";
import { parseOrThrow } from "@/lib/validation";
import { type ClientFormat, importFormats } from "./client-formats";
import { parseJsonText } from "./parse-json-text";
import { type PlannedEntry, planImport } from "./plan-import";
import { readClientConfig } from "./read-client-config";

export const importRequestSchema = z.strictObject({
  config: z.union([z.string().max(256 * 1024), z.record(z.string(), z.unknown())], {
    error: "config is the client configuration: a JSON object, or its text.",
  }),
  format: z.enum(importFormats, { error: `format is one of ${importFormats.join(", ")}.` }).default("auto"),
  dryRun: z.boolean({ error: "dryRun is true or false." }).default(false),
});

export type ImportAction = "create" | "update" | "unchanged" | "error";
/** create/update/unchanged: a value from the file; needs-value: a reference nobody has set yet. */
export type SecretChange = "create" | "update" | "unchanged" | "needs-value";

export type ImportEntryReport = {
  source: string;
  name: string | null;
  transport: Transport | null;
  action: ImportAction;
  /** names and origins only — never a value */
  secrets: Array<{ name: string; from: string; change: SecretChange }>;
  warnings: string[];
  error: ErrorBody | null;
};

export type ImportReport = {
  format: ClientFormat;
  dryRun: boolean;
  entries: ImportEntryReport[];
  summary: Record<ImportAction, number>;
};

type Scope = { tenantId: string };

/**
 * POST /api/v1/servers/import: every entry is checked like a registration (schema, egress), its
 * credential values stored as secrets, then registered — or updated when a server of that name
 * exists, so importing the same file twice changes nothing. A bad entry is reported and the rest
 * go on; a dry run reads but writes nothing.
 */
export async function importServers(
  db: Database,
  params: Scope & { input: unknown; authority: Authority },
): Promise<ImportReport> {
  const request = parseOrThrow(importRequestSchema, params.input, "The import");
  const value = typeof request.config === "string" ? parseJsonText(request.config) : request.config;
  const client = readClientConfig(value, request.format);
  const plans = planImport(client);
  const existing = await findExisting(db, { tenantId: params.tenantId, plans });

  const entries: ImportEntryReport[] = [];
  for (const plan of plans) {
    entries.push(await importEntry(db, { ...params, plan, existing, dryRun: request.dryRun }));
  }
  const summary = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const entry of entries) summary[entry.action]++;
  return { format: client.format, dryRun: request.dryRun, entries, summary };
}

async function importEntry(
  db: Database,
  params: Scope & {
    plan: PlannedEntry;
    existing: Map<string, McpServer>;
    dryRun: boolean;
    authority: Authority;
  },
): Promise<ImportEntryReport> {
  const { plan } = params;
  const report: ImportEntryReport = {
    source: plan.source,
    name: plan.name,
    transport: plan.transport,
    action: "error",
    secrets: [],
    warnings: plan.warnings,
    error: null,
  };
  if (!plan.config || !plan.name || plan.problems.length > 0) {
    report.error = {
      code: "validation",
      message: plan.problems.join(" ") || "The entry cannot be imported.",
    };
    return report;
  }
  const current = params.existing.get(plan.name);
  try {
    const body = current ? plan.config : { ...plan.config, ...plan.createOnly };
    const config = parseOrThrow(serverConfigSchema, body, `The server "${plan.name}"`);
    // An update keeps an owner's launch only when the file leaves it as it is (as updateServer decides).
    const ownerLaunch =
      params.authority.instanceOwner ||
      (current !== undefined && current.launchApprovedBy !== null && isSameLaunch(current, config));
    await assertServerAllowed(db, { tenantId: params.tenantId, config, ownerLaunch });
    report.secrets = await compareSecrets(db, { tenantId: params.tenantId, plan });
    report.action = !current ? "create" : sameConnection(current, config) ? "unchanged" : "update";
    if (!params.dryRun) await apply(db, { ...params, body, report });
  } catch (error) {
    // Only expected refusals stay per entry; anything else (the database gone) fails the request.
    if (!isAppError(error)) throw error;
    report.action = "error";
    report.error = toErrorBody(error);
  }
  return report;
}

/** Secrets first, so the server's first connect already finds them. */
async function apply(
  db: Database,
  params: Scope & {
    plan: PlannedEntry;
    body: Record<string, unknown>;
    report: ImportEntryReport;
    authority: Authority;
  },
) {
  const { plan, report } = params;
  for (const write of plan.secretWrites) {
    const change = report.secrets.find((s) => s.name === write.name)?.change;
    if (change === "unchanged") continue;
    await putSecret(db, {
      tenantId: params.tenantId,
      name: write.name,
      value: write.value,
      by: params.authority.by,
    });
  }
  const name = plan.name as string;
  const { tenantId, authority } = params;
  if (report.action === "create") await registerServer(db, { tenantId, input: params.body, authority });
  else if (report.action === "update")
    await updateServer(db, { tenantId, name, patch: params.body, authority });
}

async function compareSecrets(db: Database, params: Scope & { plan: PlannedEntry }) {
  const read = (name: string) => readSecretValue(db, { tenantId: params.tenantId, name });
  const written = await Promise.all(
    params.plan.secretWrites.map(async ({ name, from, value }) => {
      const stored = await read(name);
      const change: SecretChange =
        stored === undefined ? "create" : stored === value ? "unchanged" : "update";
      return { name, from, change };
    }),
  );
  const referenced = await Promise.all(
    params.plan.secretReferences.map(async ({ name, from }) => {
      const change: SecretChange = (await read(name)) === undefined ? "needs-value" : "unchanged";
      return { name, from, change };
    }),
  );
  return [...written, ...referenced];
}

async function findExisting(db: Database, params: Scope & { plans: PlannedEntry[] }) {
  const names = params.plans.flatMap((p) => (p.name ? [p.name] : []));
  if (names.length === 0) return new Map<string, McpServer>();
  const rows = await db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, params.tenantId), inArray(mcpServers.name, names)));
  return new Map(rows.map((row) => [row.name, row]));
}

/** Whether the stored server already connects the way the file says (names and display fields aside). */
function sameConnection(row: McpServer, config: ServerConfig): boolean {
  const stored =
    row.transport === "stdio"
      ? { transport: row.transport, command: row.command, args: row.args, cwd: row.cwd, env: row.env }
      : { transport: row.transport, url: row.url, headers: row.headers, auth: row.auth };
  const wanted =
    config.transport === "stdio"
      ? {
          transport: config.transport,
          command: config.command,
          args: config.args,
          cwd: config.cwd,
          env: config.env,
        }
      : { transport: config.transport, url: config.url, headers: config.headers, auth: config.auth };
  return canonicalJson(stored) === canonicalJson(wanted);
}
