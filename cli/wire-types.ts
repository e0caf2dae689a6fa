/**
 * Wire shapes of the governed-call routes (tools, calls, approvals, principals, events) and the
 * instance routes, as the REST API answers them. Kept loose on purpose (optional fields, fallbacks where they are read):
 * the CLI must keep working when the server adds fields.
 */

export type EffectClass = "read" | "write" | "external-write" | "destructive";

export type ToolWire = {
  id: string;
  gatewayName: string;
  serverName: string;
  name: string;
  title?: string | null;
  description?: string | null;
  effect: EffectClass | null;
  enforcedEffect?: EffectClass;
  approvalRule?: string;
  enabled?: boolean;
  serverStatus?: string;
};

export type CallStatus =
  | "pending_approval"
  | "approved"
  | "denied"
  | "expired"
  | "running"
  | "succeeded"
  | "failed"
  | "cancelled";

export type ToolContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; mimeType?: string }
  | { type: "resource"; resource?: { uri?: string; text?: string } }
  | { type: "resource_link"; uri?: string; name?: string }
  | { type: string; [key: string]: unknown };

export type CallResult = { content?: ToolContent[]; structuredContent?: unknown; isError?: boolean };

export type CallWire = {
  id: string;
  status: CallStatus;
  tool?: string;
  gatewayName?: string;
  toolName?: string;
  serverName?: string | null;
  effect?: string;
  requester?: Party | string | null;
  isError?: boolean | null;
  result?: CallResult | null;
  error?: { code?: string; message?: string } | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  approval?: ApprovalWire | null;
  approvalId?: string | null;
  durationMs?: number | null;
  createdAt?: string;
  finishedAt?: string | null;
};

export type Party = { kind?: string; id?: string; name?: string };

export type ApprovalWire = {
  id: string;
  callId?: string;
  status: string;
  requiredBecause?: string | null;
  reason?: string | null;
  decidedBy?: Party | string | null;
  decidedAt?: string | null;
  expiresAt?: string;
  createdAt?: string;
  call?: CallWire;
  tool?: string;
  gatewayName?: string;
  requester?: CallWire["requester"];
};

export type PrincipalWire = {
  id: string;
  name: string;
  description?: string | null;
  grants?: string[];
  keys?: Array<{
    id: string;
    name: string;
    prefix: string;
    scopes?: string[];
    revokedAt?: string | null;
    lastUsedAt?: string | null;
  }>;
  createdAt?: string;
};

export type ApiKeyWire = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  /** set for an agent's key (managed under principals) */
  principalId: string | null;
  principalName?: string | null;
  createdAt?: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
};

export type AuditPageWire = {
  entries: Array<{
    id: string;
    at: string;
    action: string;
    actor: { kind: string; id: string | null; name: string | null };
    subject: string | null;
    detail: string | null;
    ipAddress: string | null;
  }>;
  nextCursor: string | null;
};

export type InvitationWire = { id: string; role: string; invitedBy?: string | null; expiresAt: string };

export type MemberWire = {
  userId: string;
  name: string;
  email: string;
  role: string;
  joinedAt?: string;
  lastSignedInAt?: string | null;
};

/** A launch spec of the instance policy: a program, an argument pattern, who may register it. */
export type LaunchSpecWire = {
  program: string;
  args: string[];
  /** further arguments may follow the pattern */
  rest: boolean;
  audience: "owners" | "everyone";
  why?: string;
};

export type InstancePolicyWire = {
  workspaceCreation: "owners" | "members";
  stdio: { launchSpecs: LaunchSpecWire[]; allowedEnv: string[]; cwdRoots: string[] };
  fromEnv: { allowed: string[] };
  http: { allowedSchemes: string[]; allowLoopback: boolean; allowPrivate: boolean; denyHosts: string[] };
};

export type InstanceOwnerWire = { userId: string; name: string; email: string; since?: string };

/** GET /api/v1/instance */
export type InstanceOverviewWire = {
  policy: InstancePolicyWire;
  owners: InstanceOwnerWire[];
  stdio: { runsAs: string; isolated: boolean; notes: string[] };
  searchPath?: string;
};

/** What a workspace's servers may do: the instance policy narrowed by the workspace's egress policy. */
export type EffectivePolicyWire = {
  http: {
    allowedSchemes: string[];
    allowLoopback: boolean;
    allowPrivate: boolean;
    allowHosts: string[];
    denyHosts: string[];
  };
  launchSpecs: LaunchSpecWire[];
  fromEnv: string[];
  allowedEnv: string[];
  cwdRoots: string[];
};

/** A policy PUT that servers depend on: the saved policy and the servers it disabled. */
export type PolicyChangeWire<P> = { policy: P; disabledServers?: string[] };

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

export function toolNameOf(call: CallWire): string {
  return call.gatewayName ?? call.tool ?? call.toolName ?? "?";
}

export function requesterName(requester: CallWire["requester"]): string {
  if (!requester) return "";
  if (typeof requester === "string") return requester;
  return requester.name ?? requester.id ?? "";
}
