import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { updateToolSchema } from "@/lib/catalog/governed-tools";
import { operation, pathParams } from "../operation";
import { governedToolSchema } from "../schemas/catalog";

/** /api/v1/tools: the tool catalog across servers, as admins govern it. */

const tag = "Tools";
const toolId = pathParams({ id: "The tool's id." });
const toolBody = z.object({ tool: governedToolSchema });

export const toolPaths: ZodOpenApiPathsObject = {
  "/api/v1/tools": {
    get: operation(tag, {
      id: "listTools",
      summary: "The tool catalog across servers",
      description: "Each tool with its enforced effect, the server's hints and its approval rule.",
      access: "read",
      query: z.object({
        q: z
          .string()
          .optional()
          .meta({ description: "Matches the name, gateway name, server, title or description." }),
      }),
      responses: [
        {
          status: 200,
          description: "By server, then name.",
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
        'effect null: back to unclassified. approvalRule "never" needs a classified tool. quarantined true: every call of the tool is refused (403 policy_denied) until an admin reviews it and sets quarantined false; both are recorded in the audit log (tool.quarantined, tool.quarantine_cleared).',
      access: "manage",
      path: toolId,
      body: updateToolSchema,
      responses: [{ status: 200, description: "The tool as saved.", schema: toolBody }],
    }),
  },
};
