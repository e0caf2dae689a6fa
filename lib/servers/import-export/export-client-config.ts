import { and, eq, or } from "drizzle-orm";
import { z } from "zod";
import { grants, principals } from "@/db/schema";
import { listAllTools } from "@/lib/catalog/read-catalog";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { effectiveEffect } from "@/lib/policy/effects";
import { grantMatches } from "@/lib/policy/grant-patterns";
import { parseOrThrow } from "@/lib/validation";
import { type ClientFormat, clientFormats, formatFileNames } from "./client-formats";
import {
  API_KEY_VARIABLE,
  type ClaudePermissions,
  claudeCodePermissions,
  GATEWAY_ENTRY_NAME,
  gatewayEntry,
  gatewayInputs,
  keyInstructions,
} from "./gateway-config";
import { renderClientConfig } from "./render-client-config";

export const exportQuerySchema = z.strictObject({
  format: z
    .enum(clientFormats, { error: `format is one of ${clientFormats.join(", ")}.` })
    .default("claude-code"),
  principal: z.string().trim().min(1).max(100).optional(),
});

export type ClientExport = {
  format: ClientFormat;
  /** where the client reads the file */
  fileName: string;
  /** the file's contents: one server, the gateway, with a key placeholder (never a key) */
  config: Record<string, unknown>;
  /** Claude Code only: the `permissions` section for .claude/settings.json */
  permissions: ClaudePermissions | null;
  gatewayUrl: string;
  serverName: string;
  apiKeyVariable: string;
  /** the principal whose grants limit `permissions`, when one was named */
  principal: string | null;
  instructions: string[];
};

/**
 * GET /api/v1/servers/export: a client configuration that reaches every tool through the gateway.
 * With a principal, the Claude Code permissions cover only the tools that principal is granted.
 */
export async function exportClientConfig(
  db: Database,
  params: { tenantId: string; query: unknown },
): Promise<ClientExport> {
  const { format, principal } = parseOrThrow(exportQuerySchema, params.query, "The export");
  const gatewayUrl = `${readEnv().publicUrl}/mcp`;
  const granted = principal ? await findPrincipalGrants(db, { tenantId: params.tenantId, principal }) : null;
  const config = renderClientConfig(format, {
    entries: [gatewayEntry(format, gatewayUrl)],
    inputs: gatewayInputs,
  });
  const permissions =
    format === "claude-code"
      ? claudeCodePermissions(await listGatewayTools(db, params.tenantId, granted))
      : null;
  return {
    format,
    fileName: formatFileNames[format],
    config,
    permissions,
    gatewayUrl,
    serverName: GATEWAY_ENTRY_NAME,
    apiKeyVariable: API_KEY_VARIABLE,
    principal: granted?.name ?? null,
    instructions: [
      granted
        ? `Use a gateway-scoped key of the principal "${granted.name}" (switchboard principals keys ${granted.name} --create).`
        : "Use a gateway-scoped API key (Settings → API keys, or a principal's key).",
      keyInstructions(format),
      ...(permissions
        ? [
            "Put permissions in .claude/settings.json (read tools and Switchboard's call tools allowed; risky ones ask).",
            // Measured with Claude Code 2.1: until both, `claude mcp list` shows "Pending approval".
            `Claude Code uses a .mcp.json server once the folder is trusted and the server approved: answer both questions on the first start, or add {"enabledMcpjsonServers": ["${GATEWAY_ENTRY_NAME}"]} to .claude/settings.local.json.`,
          ]
        : []),
    ],
  };
}

async function listGatewayTools(db: Database, tenantId: string, granted: { patterns: string[] } | null) {
  const tools = await listAllTools(db, { tenantId });
  return tools
    .filter((tool) => tool.enabled)
    .filter((tool) => !granted || granted.patterns.some((pattern) => grantMatches(pattern, tool.gatewayName)))
    .map((tool) => ({ gatewayName: tool.gatewayName, effect: effectiveEffect(tool) }));
}

/** A principal by name or id, with its grant patterns. */
async function findPrincipalGrants(db: Database, params: { tenantId: string; principal: string }) {
  const [row] = await db
    .select({ id: principals.id, name: principals.name })
    .from(principals)
    .where(
      and(
        eq(principals.tenantId, params.tenantId),
        or(eq(principals.name, params.principal), eq(principals.id, params.principal)),
      ),
    );
  if (!row) throw new AppError("not_found", `There is no principal named "${params.principal}".`);
  const patterns = await db
    .select({ pattern: grants.toolPattern })
    .from(grants)
    .where(and(eq(grants.tenantId, params.tenantId), eq(grants.principalId, row.id)));
  return { name: row.name, patterns: patterns.map((p) => p.pattern) };
}
