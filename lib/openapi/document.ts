/**
 * The REST API's OpenAPI 3.1 document, generated from the zod schemas the route handlers parse
 * requests with (and, for answers, the response schemas in ./schemas, checked against the DTO
 * types at compile time).
 *
 * Library: zod-openapi, pinned at 5.4.6. It reads zod 4 schemas as they are — metadata through
 * zod's own `.meta()`, JSON Schema through zod 4's own `toJSONSchema` — so the schemas in lib/
 * need no wrapper, registry or monkey patch, and it renders a schema's input side for requests
 * and its output side for answers (defaults required in answers, optional in requests). 5.x is
 * the line that runs on Node 20 (6.x wants Node 22). @asteasolutions/zod-to-openapi would have
 * needed every schema registered, or `extendZodWithOpenApi` patching zod; zod's bare
 * `z.toJSONSchema()` would have left paths, parameters, components and input/output to us.
 */
import { createDocument, type ZodOpenApiObject } from "zod-openapi";
import packageJson from "@/package.json";
import { agentPaths } from "./paths/agents";
import { allowRulePaths } from "./paths/allow-rules";
import { callPaths } from "./paths/calls";
import { elicitationPaths } from "./paths/elicitations";
import { healthPaths } from "./paths/health";
import { importExportPaths } from "./paths/import-export";
import { peoplePaths } from "./paths/people";
import { policyPaths } from "./paths/policies";
import { principalPaths } from "./paths/principals";
import { replicaPaths } from "./paths/replicas";
import { serverPaths } from "./paths/servers";
import { statsPaths } from "./paths/stats";
import { toolPaths } from "./paths/tools";
import { webhookPaths } from "./paths/webhooks";
import { workspaceDataPaths } from "./paths/workspace-data";

export type OpenApiDocument = ReturnType<typeof createDocument>;

const tags: Array<{ name: string; description: string }> = [
  {
    name: "Servers",
    description: "The MCP servers of the workspace: registration, live state, catalog, import and export.",
  },
  {
    name: "Tools",
    description: "What the servers offer, and how admins govern it: effect, approval rule, enabled.",
  },
  { name: "Calls", description: "Calling a tool through the one governed path, and the call history." },
  {
    name: "Approvals",
    description: "Calls held for a person's decision, and servers' questions for an operator.",
  },
  { name: "Principals", description: "Agents and MCP clients: their grants and gateway keys." },
  { name: "Policies", description: "The workspace's approval and egress policies." },
  { name: "Secrets", description: "Write-only values servers refer to by name." },
  { name: "Gateway", description: "The MCP gateway's settings and URLs." },
  { name: "Events", description: "What happened: history and a live stream." },
  {
    name: "Webhooks",
    description: "Approvals and servers needing attention, posted to Slack or any HTTP receiver.",
  },
  {
    name: "Agents",
    description:
      "Model endpoints, and agent runs: a bounded tool-calling loop as a principal, under its policy.",
  },
  { name: "Audit", description: "Who did what to the workspace's access." },
  { name: "API keys", description: "Keys for scripts, CI and the CLI." },
  { name: "Members", description: "The workspace's people and invitations." },
  { name: "Workspaces", description: "The caller's workspaces." },
  { name: "Instance", description: "What every workspace may ever do, and who owns the instance." },
  {
    name: "Health",
    description:
      "Liveness, readiness and this document (no credential needed); the replicas sharing the database.",
  },
];

const description = [
  "The REST API of Switchboard, a control plane for MCP servers. Every answer is JSON; every refusal has the shape " +
    "`{error: {code, message, fieldErrors?}}` — switch on `code`, show `message` to people.",
  "Authenticate with an API key (Settings → API keys) as `Authorization: Bearer sb_…` or `X-API-Key: sb_…`; the " +
    "dashboard's session cookie works too. A key acts in the workspace it was made in.",
  "While Switchboard's database is out of reach, any route may answer `503` with `database_unavailable` and a " +
    "`Retry-After` header: nothing is wrong with the request, try it again. `GET /api/v1/health/ready` says whether " +
    "a process can serve and, if not, what it waits for.",
].join("\n\n");

const paths: ZodOpenApiObject["paths"] = {
  ...serverPaths,
  ...importExportPaths,
  ...toolPaths,
  ...callPaths,
  ...statsPaths,
  ...allowRulePaths,
  ...elicitationPaths,
  ...principalPaths,
  ...policyPaths,
  ...peoplePaths,
  ...workspaceDataPaths,
  ...webhookPaths,
  ...agentPaths,
  ...healthPaths,
  ...replicaPaths,
};

export function buildOpenApiDocument(): OpenApiDocument {
  const installFolder = process.cwd();
  return createDocument(
    {
      openapi: "3.1.0",
      info: { title: "Switchboard REST API", version: packageJson.version, description },
      // Paths are written in full (/api/v1/…): the server is wherever this document was fetched from.
      servers: [{ url: "/", description: "This Switchboard" }],
      tags,
      security: [{ bearer: [] }, { apiKey: [] }],
      components: {
        securitySchemes: {
          bearer: {
            type: "http",
            scheme: "bearer",
            description: "An API key: `Authorization: Bearer sb_…`.",
          },
          apiKey: {
            type: "apiKey",
            in: "header",
            name: "X-API-Key",
            description: "An API key: `X-API-Key: sb_…`.",
          },
        },
      },
      paths,
    },
    {
      override: ({ jsonSchema, io }) => {
        // Answers may gain fields in a later version: a client must not refuse what it doesn't know.
        if (io === "output" && jsonSchema.additionalProperties === false)
          delete jsonSchema.additionalProperties;
        // A few defaults name this installation's folders (the instance policy's launch specs and
        // working-folder roots): the document says so rather than show one machine's paths.
        if (jsonSchema.default !== undefined && JSON.stringify(jsonSchema.default).includes(installFolder)) {
          delete jsonSchema.default;
          jsonSchema.description = [jsonSchema.description, "The default names folders of this installation."]
            .filter(Boolean)
            .join(" ");
        }
      },
    },
  );
}

let built: OpenApiDocument | undefined;

/** Built once per process: the schemas cannot change while it runs. */
export function getOpenApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument();
  return built;
}
