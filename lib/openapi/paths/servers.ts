import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { connectRequestSchema } from "@/lib/oauth/connect-request";
import { serverConfigSchema, serverPatchSchema } from "@/lib/servers/config-schema";
import { healthChecksRequestSchema } from "@/lib/servers/server-operations";
import { operation, pathParams } from "../operation";
import { catalogEntrySchema, snapshotSchema, toolSchema } from "../schemas/catalog";
import {
  authorizationStartSchema,
  diagnosticsSchema,
  disconnectResultSchema,
  healthChecksResultSchema,
  healthResultSchema,
  oauthStatusSchema,
  reconnectResultSchema,
  refreshResultSchema,
  serverSchema,
} from "../schemas/servers";

/** /api/v1/servers: registering servers, and what operators do to a live one. */

const tag = "Servers";
const name = pathParams({ name: "The server's name, e.g. github-tools." });
const serverBody = z.object({ server: serverSchema });

const serverConfig = serverConfigSchema.meta({
  id: "ServerConfig",
  description:
    "A server to register, by transport. Values in env, headers and credentials are a string, " +
    '`{"secret": NAME}` (a workspace secret) or `{"fromEnv": VAR}` (Switchboard\'s environment, where the instance policy allows).',
});

const nameTaken: [409, string] = [409, "A server of that name exists"];
const refusedByPolicy: [403, string] = [
  403,
  "The caller may not (`forbidden`), or the egress or instance policy refuses the command or URL (`policy_denied`)",
];
const isDisabled: [409, string] = [409, "The server is disabled: enable it to connect"];
const unreachable = [502, 503, 504] as const;
const notOAuth: [409, string] = [
  409,
  "The server does not use OAuth: edit its authentication to connect it this way",
];

const catalogPart = (part: string, id: string, schema: z.ZodObject) =>
  operation(tag, {
    id,
    summary: `The server's discovered ${part}`,
    access: "read",
    path: name,
    responses: [{ status: 200, description: `The ${part} as last discovered.`, schema }],
  });

export const serverPaths: ZodOpenApiPathsObject = {
  "/api/v1/servers": {
    get: operation(tag, {
      id: "listServers",
      summary: "List the workspace's servers",
      access: "read",
      responses: [
        { status: 200, description: "By name.", schema: z.object({ servers: z.array(serverSchema) }) },
      ],
    }),
    post: operation(tag, {
      id: "registerServer",
      summary: "Register a server",
      access: "manage",
      body: serverConfig,
      responses: [{ status: 201, description: "Registered; the pool connects it.", schema: serverBody }],
      errors: [refusedByPolicy, nameTaken],
    }),
  },
  "/api/v1/servers/{name}": {
    get: operation(tag, {
      id: "getServer",
      summary: "One server (secrets shown as set/unset only)",
      access: "read",
      path: name,
      responses: [{ status: 200, description: "The server.", schema: serverBody }],
    }),
    patch: operation(tag, {
      id: "updateServer",
      summary: "Change a server",
      description:
        "Any subset of the fields of `ServerConfig`: merged with the stored configuration and validated as a whole. " +
        "Changing `transport` drops the fields of the old one.",
      access: "manage",
      path: name,
      body: serverPatchSchema.meta({ description: "Any subset of ServerConfig's fields." }),
      responses: [{ status: 200, description: "The server as saved.", schema: serverBody }],
      errors: [refusedByPolicy, nameTaken],
    }),
    delete: operation(tag, {
      id: "deleteServer",
      summary: "Remove a server",
      access: "manage",
      path: name,
      responses: [{ status: 204, description: "Removed; its connection is closed." }],
    }),
  },
  "/api/v1/servers/{name}/diagnostics": {
    get: operation(tag, {
      id: "getServerDiagnostics",
      summary: "State, last error, exit code/signal, stderr tail, health history",
      access: "read",
      path: name,
      responses: [
        {
          status: 200,
          description: "Live when this process holds the connection.",
          schema: diagnosticsSchema,
        },
      ],
    }),
  },
  "/api/v1/servers/{name}/health-check": {
    post: operation(tag, {
      id: "checkServerHealth",
      summary: "Probe the server now",
      access: "manage",
      path: name,
      responses: [
        { status: 200, description: "The probe's result, with its latency.", schema: healthResultSchema },
      ],
      errors: [isDisabled, 503],
    }),
  },
  "/api/v1/health-checks": {
    post: operation(tag, {
      id: "checkServersHealth",
      summary: "Probe many servers now",
      description:
        "Probes the servers named in `servers`, or every enabled server of the workspace for `{}`, 4 at a time, " +
        "and answers when all are done. A server that cannot be probed is a failed result, not a failed request.",
      access: "manage",
      body: healthChecksRequestSchema,
      responses: [
        { status: 200, description: "Each server's probe, in name order.", schema: healthChecksResultSchema },
      ],
      errors: [[404, "A named server does not exist"], 503],
    }),
  },
  "/api/v1/servers/{name}/reconnect": {
    post: operation(tag, {
      id: "reconnectServer",
      summary: "Drop and re-open the connection",
      access: "manage",
      path: name,
      responses: [
        { status: 200, description: "The state after reconnecting.", schema: reconnectResultSchema },
      ],
      errors: [isDisabled, ...unreachable],
    }),
  },
  "/api/v1/servers/{name}/refresh": {
    post: operation(tag, {
      id: "refreshServerCatalog",
      summary: "List the catalog again",
      description: "A change becomes a new snapshot and a catalog.changed event.",
      access: "manage",
      path: name,
      responses: [{ status: 200, description: "What changed.", schema: refreshResultSchema }],
      errors: [isDisabled, ...unreachable],
    }),
  },
  "/api/v1/servers/{name}/oauth": {
    get: operation(tag, {
      id: "getServerOAuth",
      summary: "How Switchboard is signed in to an OAuth server",
      description:
        "Whether it holds tokens the server accepts, who connected it, the last problem: never a token.",
      access: "read",
      path: name,
      responses: [
        {
          status: 200,
          description: "The server's OAuth standing.",
          schema: z.object({ oauth: oauthStatusSchema }),
        },
      ],
      errors: [notOAuth],
    }),
    delete: operation(tag, {
      id: "disconnectServerOAuth",
      summary: "Disconnect: delete Switchboard's tokens for the server",
      description:
        "The tokens are revoked at the authorization server where it offers RFC 7009 revocation, and deleted here " +
        "either way. The server's calls fail (`needs-authorization`) until an admin connects it again. " +
        "Audited, and a server.deauthorized event.",
      access: "manage",
      path: name,
      responses: [
        {
          status: 200,
          description: "Disconnected: the standing now, and whether the tokens were revoked.",
          schema: disconnectResultSchema,
        },
      ],
      errors: [notOAuth],
    }),
  },
  "/api/v1/servers/{name}/oauth/connect": {
    post: operation(tag, {
      id: "connectServerOAuth",
      summary: "Connect: start signing Switchboard in to an OAuth server",
      description:
        "Discovers the authorization server (RFC 9728, RFC 8414/OpenID Connect), registers Switchboard where " +
        "no client ID was entered (its client ID metadata document when the public URL is https, else RFC 7591), " +
        "and answers the authorization URL for the caller's browser. The sign-in and consent happen there; the " +
        "authorization server redirects to /oauth/callback, which must be reached by the same person " +
        "(for an API key: the person who created it, if any) within 10 minutes. Then the server is reconnected with the new tokens " +
        "(a server.authorized event). Without a body it asks for the configured scopes plus any the server said it needs.",
      access: "manage",
      path: name,
      body: connectRequestSchema.meta({
        description: "Optional: the scopes to ask for instead of the usual ones.",
      }),
      isBodyOptional: true,
      responses: [
        {
          status: 200,
          description: "The URL to open in a browser.",
          schema: authorizationStartSchema,
        },
      ],
      errors: [
        notOAuth,
        [
          502,
          "Discovery, registration or the authorization request failed (`upstream_error`): the message names the " +
            "step, the URL and the HTTP status, and the server's `oauth.problem` keeps it",
        ],
      ],
    }),
  },
  "/api/v1/servers/{name}/tools": {
    get: catalogPart("tools", "listServerTools", z.object({ tools: z.array(toolSchema) })),
  },
  "/api/v1/servers/{name}/resources": {
    get: catalogPart(
      "resources",
      "listServerResources",
      z.object({ resources: z.array(catalogEntrySchema), resourceTemplates: z.array(catalogEntrySchema) }),
    ),
  },
  "/api/v1/servers/{name}/prompts": {
    get: catalogPart("prompts", "listServerPrompts", z.object({ prompts: z.array(catalogEntrySchema) })),
  },
  "/api/v1/servers/{name}/snapshots": {
    get: catalogPart(
      "snapshots",
      "listServerSnapshots",
      z.object({ snapshots: z.array(snapshotSchema).meta({ description: "Newest first, at most 50." }) }),
    ),
  },
};
