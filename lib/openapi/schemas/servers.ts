import { z } from "zod";
import type { StoredAuth } from "@/db/schema";
import type { disconnect, startAuthorization } from "@/lib/oauth/authorization";
import type { OAuthProblem, OAuthStatus } from "@/lib/oauth/types";
import { transports } from "@/lib/servers/config-schema";
import type { CrashCallDto } from "@/lib/servers/crash-attribution";
import type { ReplicaSummary, ServerReplicaDto } from "@/lib/servers/replica-state";
import type { ServerDto, ValueView } from "@/lib/servers/server-dto";
import type {
  checkServerHealth,
  checkServersHealth,
  getServerDiagnostics,
  reconnectServer,
  refreshServerCatalog,
} from "@/lib/servers/server-operations";
import { connectionStates } from "@/lib/upstream/pool-events";
import { describes } from "../type-check";
import { partySchema } from "./calls";
import { catalogDiffSchema } from "./catalog";

/** What the server routes answer: a server as shown (secrets set/unset only) and its live state. */

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

const isoTime = () => z.string().meta({ description: "ISO 8601" });

export const valueViewSchema = describes<ValueView>()(
  z
    .union([
      z.string(),
      z.object({ secret: z.string(), isSet: z.boolean() }),
      z.object({ fromEnv: z.string(), isSet: z.boolean() }),
    ])
    .meta({
      id: "ValueView",
      description:
        "A literal value as it is, or a reference with whether it is set (a secret's value is never shown).",
    }),
);

const serverReplicaSchema = describes<ServerReplicaDto>()(
  z
    .object({
      id: z.string().meta({ description: "The replica: SWITCHBOARD_REPLICA_ID, or host:port." }),
      state: z.string().meta({
        description:
          "Its connection state of the server (the values of `Server.status`); `unknown` for a live replica that has recorded none yet.",
      }),
      lastError: z.string().nullable(),
      updatedAt: isoTime()
        .nullable()
        .meta({ description: "When it last recorded a state; null when never." }),
      live: z.boolean().meta({
        description:
          "Its heartbeat is recent (within 20 s). A replica gone silent is listed with `false` and counts for nothing.",
      }),
    })
    .meta({ id: "ServerReplica", description: "One replica's view of a server: each replica connects it." }),
);

const replicaSummarySchema = describes<ReplicaSummary>()(
  z
    .object({
      ready: z.number().meta({ description: "Live replicas that have the server ready." }),
      of: z.number().meta({ description: "Live replicas." }),
    })
    .meta({ id: "ReplicaSummary", description: "Ready on `ready` of `of` live replicas." }),
);

const authTypes = [
  "none",
  "bearer",
  "api_key",
  "custom_header",
  "oauth",
] as const satisfies readonly StoredAuth["type"][];

export const serverSchema = describes<ServerDto>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      displayName: z.string().nullable(),
      description: z.string().nullable(),
      transport: z.enum(transports),
      target: z.string().meta({ description: "What the server points at: the command line or the URL." }),
      command: z.string().nullable(),
      programPath: z.string().nullable().meta({
        description: "The program that runs: the command resolved on Switchboard's PATH when saved.",
      }),
      launchApprovedByOwner: z.boolean().meta({
        description: "The launch was saved by an instance owner (owner-only launch specs need this).",
      }),
      args: z.array(z.string()),
      cwd: z.string().nullable(),
      env: z.record(z.string(), valueViewSchema),
      url: z.string().nullable(),
      headers: z.record(z.string(), valueViewSchema),
      auth: z.object({
        type: z.enum(authTypes),
        headerName: z.string().optional(),
        credential: valueViewSchema.optional(),
        clientId: z.string().optional().meta({ description: "OAuth: the client ID an admin entered." }),
        clientSecret: valueViewSchema
          .optional()
          .meta({ description: "OAuth: the workspace secret holding the client secret." }),
        scopes: z
          .array(z.string())
          .optional()
          .meta({ description: "OAuth: the scopes Switchboard asks for." }),
      }),
      enabled: z.boolean(),
      connectTimeoutMs: z.number(),
      callTimeoutMs: z.number(),
      healthIntervalSeconds: z.number(),
      resourceReadsNeedApproval: z.boolean().meta({
        description: "Every resources/read of this server through the gateway waits for a person's approval.",
      }),
      status: z.string().meta({
        description:
          `Connection state: ${connectionStates.map((state) => `\`${state}\``).join(", ")}; ` +
          '"unknown" until the pool reports one. `needs-authorization`: an OAuth server without a token it accepts ' +
          "(no retries; calls fail at once) until an admin connects it (POST …/oauth/connect). " +
          "With several replicas: `disabled` when the server is; otherwise the worst state among the live replicas " +
          "(needs-authorization, crash-loop, disconnected, disabled, degraded, connecting, ready — worst first); " +
          "each replica's is in `replicas`.",
      }),
      lastError: z.string().nullable(),
      replicas: z.array(serverReplicaSchema).meta({
        description:
          "Each replica's state of the server, by replica id; empty when no replica has a heartbeat.",
      }),
      replicaSummary: replicaSummarySchema,
      createdAt: isoTime(),
      updatedAt: isoTime(),
    })
    .meta({ id: "Server" }),
);

export const healthResultSchema = describes<Result<typeof checkServerHealth>>()(
  z
    .object({
      ok: z.boolean(),
      latencyMs: z.number().nullable().meta({ description: "null when no probe could be sent." }),
      error: z.string().optional(),
      checkedAt: isoTime(),
      probe: z.enum(["ping", "tools/list"]).optional(),
    })
    .meta({ id: "HealthResult" }),
);

export const healthChecksResultSchema = describes<Result<typeof checkServersHealth>>()(
  z.object({
    results: z.array(healthResultSchema.extend({ server: z.string() })).meta({
      description: "One per enabled server probed, by server name.",
    }),
    skipped: z
      .array(z.object({ server: z.string(), reason: z.enum(["disabled"]) }))
      .meta({ description: "Named or existing servers not probed, and why." }),
  }),
);

export const reconnectResultSchema = describes<Result<typeof reconnectServer>>()(
  z.object({ state: z.enum(connectionStates) }),
);

export const refreshResultSchema = describes<Result<typeof refreshServerCatalog>>()(
  z.object({
    changed: z.boolean().meta({ description: "A new snapshot was taken." }),
    hash: z.string(),
    diff: catalogDiffSchema,
    problems: z.array(z.string()).meta({ description: "What discovery could not list, one sentence each." }),
  }),
);

const crashCallSchema = describes<CrashCallDto>()(
  z
    .object({
      callId: z.string(),
      tool: z.string().meta({ description: "The server's own name of the tool." }),
      requester: partySchema.nullable().meta({ description: "null when the call's record is gone." }),
      crashedAt: isoTime(),
      exitCode: z.number().nullable(),
      exitSignal: z.string().nullable(),
    })
    .meta({ id: "CrashCall" }),
);

const exitSchema = z.object({ code: z.number().nullable(), signal: z.string().nullable() });

const liveDiagnosticsSchema = z.object({
  serverId: z.string(),
  serverName: z.string(),
  transport: z.enum(transports),
  state: z.enum(connectionStates),
  commandLine: z.string().optional().meta({ description: "stdio: secrets shown as [redacted]." }),
  url: z.string().optional().meta({ description: "HTTP: without query or fragment." }),
  pid: z.number().optional(),
  connectedAt: z.string().optional(),
  serverInfo: z.object({ name: z.string(), version: z.string(), title: z.string().optional() }).optional(),
  capabilities: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: "The MCP capabilities the server announced." }),
  protocolVersion: z.string().optional(),
  lastError: z.object({ message: z.string(), at: z.string(), stderrTail: z.string().optional() }).optional(),
  exit: exitSchema.extend({ at: z.string() }).optional(),
  stderr: z.string().meta({ description: "The scrubbed stderr ring buffer (up to 64 KiB)." }),
  recentFailures: z.number(),
  nextRetryAt: z.string().optional(),
  lastHealth: healthResultSchema.optional(),
});

export const diagnosticsSchema = describes<Result<typeof getServerDiagnostics>>()(
  z
    .object({
      server: z.string(),
      state: z.enum(connectionStates).meta({
        description:
          "The server's state over every live replica, as `Server.status` (this replica's pool is fresher than its row).",
      }),
      replica: z.string().meta({
        description:
          "The replica that answered: `live`, `lastError`, `exit` and `stderrTail` are its (or the last recorded).",
      }),
      replicas: z.array(serverReplicaSchema),
      replicaSummary: replicaSummarySchema,
      live: liveDiagnosticsSchema
        .nullable()
        .meta({ description: "null when this process's pool does not hold it." }),
      lastError: z
        .object({ message: z.string(), at: z.string().optional(), stderrTail: z.string().optional() })
        .nullable(),
      exit: exitSchema.extend({ at: z.string().optional() }).nullable(),
      stderrTail: z.string(),
      healthHistory: z.array(
        z.object({
          ok: z.boolean(),
          latencyMs: z.number().nullable(),
          error: z.string().nullable(),
          checkedAt: isoTime(),
          replica: z.string().nullable().meta({
            description: "The replica that probed; null for checks recorded before replicas were named.",
          }),
        }),
      ),
      crashedDuringCalls: z.array(crashCallSchema).meta({
        description:
          "The calls running when the server's process exited on its own (latest first, up to 20): who may have crashed it.",
      }),
    })
    .meta({ id: "ServerDiagnostics" }),
);

const oauthProblemSchema = describes<OAuthProblem>()(
  z
    .object({
      step: z.enum(["metadata", "registration", "authorization", "token", "refresh", "revocation"]).meta({
        description: "The step of the OAuth flow that failed.",
      }),
      status: z
        .number()
        .nullable()
        .meta({ description: "The authorization server's HTTP status; null when none came back." }),
      message: z.string().meta({ description: "What failed, for the admin: never a token or code." }),
      at: isoTime(),
    })
    .meta({ id: "OAuthProblem" }),
);

export const oauthStatusSchema = describes<OAuthStatus>()(
  z
    .object({
      status: z.enum(["not_connected", "connected", "needs_authorization"]).meta({
        description:
          "`needs_authorization`: the tokens stopped working (refresh refused, grant revoked, more scope needed).",
      }),
      registration: z
        .enum(["metadata_document", "dynamic", "manual"])
        .nullable()
        .meta({
          description:
            "How Switchboard is known to the authorization server: its client ID metadata document, " +
            "dynamic registration (RFC 7591), or a client ID an admin entered; null before the first Connect.",
        }),
      issuer: z.string().nullable(),
      scopes: z.array(z.string()).meta({ description: "The scopes granted." }),
      neededScope: z.string().nullable().meta({
        description: "A scope the server asked for (403 insufficient_scope): a Connect asks for it too.",
      }),
      expiresAt: isoTime()
        .nullable()
        .meta({ description: "The access token's expiry; it is renewed before." }),
      connectedAt: isoTime().nullable(),
      connectedBy: z.string().nullable().meta({ description: "The person or API key that connected it." }),
      problem: oauthProblemSchema.nullable().meta({ description: "The last failure, naming its step." }),
    })
    .meta({
      id: "OAuthStatus",
      description: "How Switchboard is signed in to an OAuth server: never a token.",
    }),
);

export const disconnectResultSchema = describes<Result<typeof disconnect>>()(
  z.object({
    oauth: oauthStatusSchema,
    revoked: z.boolean().meta({
      description:
        "The tokens were revoked at the authorization server (RFC 7009); false when it offers no revocation " +
        "or refused it (then `oauth.problem` says why). They are deleted here either way.",
    }),
  }),
);

export const authorizationStartSchema = describes<Result<typeof startAuthorization>>()(
  z.object({
    authorizationUrl: z.string().meta({
      description:
        "The authorization server's authorization endpoint with PKCE (S256) and a state: open it in a browser " +
        "signed in to Switchboard as the same person; it returns to /oauth/callback. The state is good once, for 10 minutes.",
    }),
  }),
);
