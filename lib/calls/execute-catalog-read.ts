import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { mcpServers } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getApprovalPolicy } from "@/lib/policy/approval-rules";
import { decisionCache } from "@/lib/policy/decision-cache";
import { assertAcceptingCalls, shutdownGate } from "@/lib/runtime/shutdown-state";
import { parseOrThrow } from "@/lib/validation";
import { authorizeCatalogRead, type Decision, firstRefusal, loadGrants } from "./call-decision";
import { recordRunningCall } from "./call-journal";
import type { CallDto } from "./call-view";
import { type FollowParams, followCall, needsSealing, runAllowedCall } from "./execute-tool-call";
import { type NewCall, recordCall } from "./record-call";
import type { Requester } from "./requester";
import { scrubValue } from "./scrub";
import { sealArguments } from "./sealed-arguments";
import { cachedWorkspaceSecrets } from "./workspace-secrets";

/**
 * A resources/read or prompts/get through the gateway, on the one path of a call: authorized (a
 * grant covering the whole server), gated (the server's "resource reads need approval" setting),
 * recorded in the call history with its kind, run on the pooled connection (run-approved-call),
 * its result scrubbed and bounded like a tool's. A refusal is recorded too, as a denied call: a
 * principal that tried to read what it may not leaves a trace.
 *
 * The gateway has already found which server the URI or prompt leads to among those the principal
 * is granted anything of (lib/gateway/server/catalog-access.ts); this decides whether it may.
 */

const readRequestSchema = z.object({
  kind: z.enum(["resource_read", "prompt_get"]),
  serverId: z.string().min(1),
  /** the URI, or the prompt's own name */
  target: z.string().min(1).max(4096),
  arguments: z.record(z.string(), z.unknown(), { error: "arguments must be a JSON object." }).default({}),
  waitMs: z.number().int().min(0).max(3_600_000).default(0),
});

export type ExecuteCatalogReadParams = FollowParams & {
  requester: Requester;
  kind: "resource_read" | "prompt_get";
  serverId: string;
  target: string;
  /** a prompt's arguments */
  arguments?: Record<string, unknown>;
  waitMs?: number;
};

export async function executeCatalogRead(db: Database, params: ExecuteCatalogReadParams): Promise<CallDto> {
  // As executeToolCall: refused while shutting down, in flight until written once taken.
  assertAcceptingCalls();
  return shutdownGate.track(() => executeAcceptedRead(db, params));
}

async function executeAcceptedRead(db: Database, params: ExecuteCatalogReadParams): Promise<CallDto> {
  const request = parseOrThrow(readRequestSchema, params, "The read");
  const { tenantId, requester } = params;
  const server = await findReadServer(db, { tenantId, serverId: request.serverId });
  if (!server) throw new AppError("not_found", "There is no such server in this workspace.");
  const [grants, policy, secrets] = await Promise.all([
    loadGrants(db, { tenantId, requester }),
    decisionCache.get(tenantId, "approval-policy", () => getApprovalPolicy(db, { tenantId })),
    cachedWorkspaceSecrets(db, { tenantId }),
  ]);
  const original = request.kind === "resource_read" ? { uri: request.target } : request.arguments;
  const scrubbed = scrubValue(original, secrets);
  const decision = firstRefusal(
    () => authorizeCatalogRead(requester, grants, server.name),
    () => checkServerUsable(server),
    () => gateRead(request.kind, server),
  );
  const callId = crypto.randomUUID();
  const newCall: NewCall = {
    id: callId,
    tenantId,
    requester,
    kind: request.kind,
    // What the history shows as the call's name: the URI, or `<server>__<prompt>` as on /mcp.
    gatewayName: request.kind === "resource_read" ? request.target : `${server.name}__${request.target}`,
    target: { serverId: server.id, serverName: server.name, toolName: request.target, effect: "read" },
    decision,
    arguments: scrubbed,
    sealedArguments: needsSealing(original, scrubbed) ? sealArguments(original, { tenantId, callId }) : null,
    idempotencyKey: undefined,
    expirySeconds: policy.expirySeconds,
  };
  const target = { callTimeoutMs: server.callTimeoutMs };
  if (decision.kind === "allow")
    return runAllowedCall(db, params, await recordRunningCall(db, newCall), target);
  const { view, created } = await recordCall(db, newCall);
  return followCall(db, params, view, { waitMs: request.waitMs, isOwnRequest: created, target });
}

type ReadServer = NonNullable<Awaited<ReturnType<typeof findReadServer>>>;

async function findReadServer(db: Database, params: { tenantId: string; serverId: string }) {
  const [server] = await db
    .select({
      id: mcpServers.id,
      name: mcpServers.name,
      enabled: mcpServers.enabled,
      callTimeoutMs: mcpServers.callTimeoutMs,
      resourceReadsNeedApproval: mcpServers.resourceReadsNeedApproval,
    })
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, params.tenantId), eq(mcpServers.id, params.serverId)));
  return server;
}

function checkServerUsable(server: ReadServer): Decision {
  return server.enabled
    ? { kind: "allow" }
    : { kind: "deny", reason: `The server "${server.name}" is disabled.` };
}

/** Resource reads wait for a person when an admin said so for the server; prompt gets never do. */
function gateRead(kind: "resource_read" | "prompt_get", server: ReadServer): Decision {
  if (kind === "resource_read" && server.resourceReadsNeedApproval) {
    return {
      kind: "needs_approval",
      reason: `Resource reads of ${server.name} need approval (a setting of the server).`,
    };
  }
  return { kind: "allow" };
}
