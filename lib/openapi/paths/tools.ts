import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { type GovernedToolPage, updateToolSchema } from "@/lib/catalog/governed-tools";
import { listToolsQuerySchema, TOOLS_PAGE_SIZE } from "@/lib/catalog/tool-query";
import { MAX_TOOLS_PER_UPDATE, updateToolsSchema } from "@/lib/catalog/update-tools";
import { operation, pathParams } from "../operation";
import { governedToolSchema } from "../schemas/catalog";
import { describes } from "../type-check";

/** /api/v1/tools: the tool catalog across servers, as admins govern it. */

const tag = "Tools";
const toolId = pathParams({ id: "The tool's id." });
const toolBody = z.object({ tool: governedToolSchema });
const toolPage = describes<GovernedToolPage>()(
  z.object({
    tools: z.array(governedToolSchema),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` for the next page; null after the last." }),
    total: z.number().int().meta({ description: "Tools matching the filters, across all pages." }),
  }),
);

export const toolPaths: ZodOpenApiPathsObject = {
  "/api/v1/tools": {
    get: operation(tag, {
      id: "listTools",
      summary: "The tool catalog across servers, a page at a time",
      description: `Each tool with its enforced effect, the server's hints and its approval rule, in gateway-name order (then id), ${TOOLS_PAGE_SIZE} a page unless \`limit\` says otherwise. Follow \`nextCursor\` for the next page: while nothing changes, every matching tool comes exactly once. Removed tools are not listed. A bad \`limit\`, \`effect\`, \`status\` or \`cursor\` is a 400 naming the field.`,
      access: "read",
      query: listToolsQuerySchema,
      responses: [{ status: 200, description: "One page of the matching tools.", schema: toolPage }],
    }),
    patch: operation(tag, {
      id: "updateTools",
      summary: "Change many tools at once (e.g. classify a server's tools)",
      description: `Each change is { id, …the fields of PATCH /api/v1/tools/{id} }, at most ${MAX_TOOLS_PER_UPDATE} per request, each id once. All or nothing, in one transaction: an id not in this workspace is a 404 naming that id, a refused change a 400 whose fieldErrors start with changes.<index>; either way no tool changes. Each tool is audited (tool.policy_changed) and evented (policy.changed) as a single change. A server's annotations are never applied by this: a suggested effect is only applied when it is sent here.`,
      access: "manage",
      body: updateToolsSchema,
      errors: [[404, "An id in changes is not a tool of this workspace; the message names it"]],
      responses: [
        {
          status: 200,
          description: "The tools as saved, in the order of changes.",
          schema: z.object({ tools: z.array(governedToolSchema) }),
        },
      ],
    }),
  },
  "/api/v1/tools/{id}": {
    get: operation(tag, {
      id: "getTool",
      summary: "One tool",
      access: "read",
      path: toolId,
      responses: [{ status: 200, description: "The tool.", schema: toolBody }],
    }),
    patch: operation(tag, {
      id: "updateTool",
      summary: "Set a tool's effect, enabled flag, approval rule or quarantine",
      description:
        'effect null: back to unclassified. approvalRule "never" needs a classified tool: setting it (or unclassifying a tool that has it) is refused, since an unclassified tool is enforced as external-write whatever its rule. A tool whose definition changed keeps its "never", dormant until it is classified again. quarantined true: every call of the tool is refused (403 policy_denied) until an admin reviews it and sets quarantined false; both are recorded in the audit log (tool.quarantined, tool.quarantine_cleared).',
      access: "manage",
      path: toolId,
      body: updateToolSchema,
      responses: [{ status: 200, description: "The tool as saved.", schema: toolBody }],
    }),
  },
};
