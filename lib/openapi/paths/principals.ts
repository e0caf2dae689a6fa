import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { replaceGrantsSchema } from "@/lib/policy/grants";
import { createPrincipalKeySchema } from "@/lib/principals/principal-access";
import { createPrincipalSchema } from "@/lib/principals/principals";
import { operation, pathParams } from "../operation";
import { createdApiKeySchema, principalSchema } from "../schemas/people";

/** /api/v1/principals: the agents and MCP clients of a workspace, their grants and keys. */

const tag = "Principals";
const principalId = pathParams({ id: "The principal's id." });
const patterns = z.object({
  patterns: z.array(z.string()).meta({ description: "`*`, `<server>__*` or `<server>__<tool>`, sorted." }),
});

export const principalPaths: ZodOpenApiPathsObject = {
  "/api/v1/principals": {
    get: operation(tag, {
      id: "listPrincipals",
      summary: "Agents and MCP clients with their grants and keys",
      access: "read",
      responses: [
        {
          status: 200,
          description: "The principals.",
          schema: z.object({ principals: z.array(principalSchema) }),
        },
      ],
    }),
    post: operation(tag, {
      id: "createPrincipal",
      summary: "Create a principal",
      access: "manage",
      body: createPrincipalSchema,
      responses: [
        { status: 201, description: "The principal.", schema: z.object({ principal: principalSchema }) },
      ],
      errors: [[409, "A principal of that name exists"]],
    }),
  },
  "/api/v1/principals/{id}": {
    get: operation(tag, {
      id: "getPrincipal",
      summary: "One principal",
      access: "read",
      path: principalId,
      responses: [
        { status: 200, description: "The principal.", schema: z.object({ principal: principalSchema }) },
      ],
    }),
    delete: operation(tag, {
      id: "deletePrincipal",
      summary: "Remove a principal with its keys and grants",
      access: "manage",
      path: principalId,
      responses: [{ status: 204, description: "Removed; its keys stop working." }],
    }),
  },
  "/api/v1/principals/{id}/grants": {
    get: operation(tag, {
      id: "getGrants",
      summary: "The tool patterns a principal may call",
      access: "read",
      path: principalId,
      responses: [{ status: 200, description: "The patterns.", schema: patterns }],
    }),
    put: operation(tag, {
      id: "replaceGrants",
      summary: "Replace the principal's grants as a set",
      access: "manage",
      path: principalId,
      body: replaceGrantsSchema,
      responses: [{ status: 200, description: "The patterns as saved.", schema: patterns }],
    }),
  },
  "/api/v1/principals/{id}/keys": {
    post: operation(tag, {
      id: "createPrincipalKey",
      summary: "A gateway key for the principal",
      description: "Always gateway-only; its value is in this answer only.",
      access: "manage",
      path: principalId,
      body: createPrincipalKeySchema,
      responses: [{ status: 201, description: "The key and its value.", schema: createdApiKeySchema }],
    }),
  },
  "/api/v1/principals/{id}/keys/{keyId}": {
    delete: operation(tag, {
      id: "revokePrincipalKey",
      summary: "Revoke one of the principal's keys",
      access: "manage",
      path: pathParams({ id: "The principal's id.", keyId: "The key's id." }),
      responses: [{ status: 204, description: "Revoked." }],
    }),
  },
};
