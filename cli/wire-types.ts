/**
 * Wire shapes of the REST API as the CLI reads them: names for the types generated from the
 * OpenAPI document (wire-types.generated.ts, `npm run generate:wire-types`), so a route's answer
 * and the CLI cannot drift apart. Fields the server adds later are simply not read.
 */
import type { components, operations } from "./wire-types.generated";

type Schemas = components["schemas"];
/** The JSON body of an operation's answer with the given status. */
type Answer<Op extends keyof operations, Status extends number = 200> =
  operations[Op]["responses"] extends Record<Status, { content: { "application/json": infer Body } }>
    ? Body
    : never;

export type EffectClass = Schemas["Effect"];
export type ToolWire = Schemas["GovernedTool"];
export type ToolPageWire = Answer<"listTools">;
/** The filters of GET /api/v1/tools (all but limit and cursor, which paging sets). */
export type ToolFiltersWire = Omit<
  NonNullable<operations["listTools"]["parameters"]["query"]>,
  "limit" | "cursor"
>;
export type CallStatus = Schemas["CallSummary"]["status"];
export type GatewaySettingsWire = Answer<"getGatewaySettings">;
export type Party = Schemas["Party"];

/** A content item of an MCP tool result (the document leaves items open: they are MCP's). */
export type ToolContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; mimeType?: string }
  | { type: "resource"; resource?: { uri?: string; text?: string } }
  | { type: "resource_link"; uri?: string; name?: string }
  | { type: string; [key: string]: unknown };

export type CallResult = Omit<Schemas["CallResult"], "content"> & {
  content?: ToolContent[];
  structuredContent?: unknown;
};

/** A call as listed (a summary) or read one at a time (with its arguments and result). */
export type CallWire = Schemas["CallSummary"] & {
  arguments?: Schemas["Call"]["arguments"];
  result?: CallResult | null;
};

/** An approval as listed (with its call), or as a call carries it. */
export type ApprovalWire = Schemas["ApprovalInfo"] & { call?: Schemas["Approval"]["call"] };

/** A server's question for an operator (GET /api/v1/elicitations). */
export type ElicitationWire = Schemas["Elicitation"];

export type PrincipalWire = Schemas["Principal"];
export type ApiKeyWire = Schemas["ApiKey"];
export type AuditPageWire = Answer<"listAuditEntries">;
export type CallStatsWire = Answer<"getCallStats">;
export type InvitationWire = Schemas["Invitation"];
export type MemberWire = Schemas["Member"];

export type InstancePolicyWire = Answer<"getInstancePolicy">["policy"];
/** A launch spec of the instance policy: a program, an argument pattern, who may register it. */
export type LaunchSpecWire = InstancePolicyWire["stdio"]["launchSpecs"][number];
export type InstanceOwnerWire = Schemas["InstanceOwner"];
/** GET /api/v1/instance */
export type InstanceOverviewWire = Answer<"getInstance">;

/** What a workspace's servers may do: the instance policy narrowed by the workspace's egress policy. */
export type EffectivePolicyWire = Schemas["EffectivePolicy"];

/** A policy PUT that servers depend on: the saved policy and the servers it disabled. */
export type PolicyChangeWire<P> = Omit<Answer<"putEgressPolicy">, "policy"> & { policy: P };

export const terminalCallStatuses: readonly CallStatus[] = [
  "denied",
  "expired",
  "succeeded",
  "failed",
  "cancelled",
];

/** A route may answer `{call: …}` or the call itself; both are read the same. */
export function unwrapCall(body: unknown): CallWire {
  const value = body as { call?: CallWire } & CallWire;
  return value?.call ?? value;
}

export function toolNameOf(call: { tool?: string; gatewayName?: string; toolName?: string }): string {
  return call.tool ?? call.gatewayName ?? call.toolName ?? "?";
}

export function requesterName(requester: Party | string | null | undefined): string {
  if (!requester) return "";
  if (typeof requester === "string") return requester;
  return requester.name ?? requester.id ?? "";
}

/** POST /api/v1/servers/{name}/health-check */
export type HealthCheckWire = Answer<"checkServerHealth">;
/** POST /api/v1/health-checks */
export type HealthChecksWire = Answer<"checkServersHealth">;
/** POST /api/v1/servers/{name}/refresh */
export type RefreshWire = Answer<"refreshServerCatalog">;
/** GET /api/v1/servers/{name}/tools */
export type ServerToolsWire = Answer<"listServerTools">;
/** GET /api/v1/servers/{name}/diagnostics */
export type DiagnosticsWire = Answer<"getServerDiagnostics">;

export type ServerWire = Schemas["Server"];
/** How a configured value reads back: plain text, a secret reference (set or missing), or an env reference. */
export type ValueViewWire = Schemas["ValueView"];
export type ImportReportWire = Schemas["ImportReport"];
export type ImportEntryWire = ImportReportWire["entries"][number];
export type ClientExportWire = Schemas["ClientExport"];

/** How Switchboard is signed in to an OAuth server (never a token). */
export type OAuthStatusWire = Schemas["OAuthStatus"];
/** GET /api/v1/servers/{name}/oauth */
export type OAuthStandingWire = Answer<"getServerOAuth">;
/** DELETE /api/v1/servers/{name}/oauth */
export type DisconnectWire = Answer<"disconnectServerOAuth">;
/** POST /api/v1/servers/{name}/oauth/connect */
export type ConnectWire = Answer<"connectServerOAuth">;

/** An allow rule: a principal may call a tool without approval until it expires (GET /api/v1/allow-rules). */
export type AllowRuleWire = Schemas["AllowRule"];

/** An OpenAI-compatible endpoint agent runs talk to (GET /api/v1/model-connections). */
export type ModelConnectionWire = Schemas["ModelConnection"];
/** An agent run with its steps so far (GET /api/v1/agent-runs/{id}). */
export type AgentRunWire = Schemas["AgentRun"];
export type AgentRunStepWire = Schemas["AgentRunStep"];
