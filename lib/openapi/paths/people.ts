import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { createApiKeySchema } from "@/lib/auth/api-keys";
import { createInvitationSchema } from "@/lib/auth/invitations";
import { changeRoleSchema } from "@/lib/auth/members";
import { createWorkspaceSchema } from "@/lib/tenancy/workspaces";
import { operation, pathParams } from "../operation";
import {
  apiKeySchema,
  createdApiKeySchema,
  createdInvitationSchema,
  memberSchema,
  pendingInvitationSchema,
  workspaceSchema,
} from "../schemas/people";

/** /api/v1/api-keys, /members, /invitations, /workspaces: who may do what in a workspace. */

const lastAdmin: [409, string] = [409, "A workspace keeps at least one admin"];

export const peoplePaths: ZodOpenApiPathsObject = {
  "/api/v1/api-keys": {
    get: operation("API keys", {
      id: "listApiKeys",
      summary: "The workspace's API keys",
      description: "Names, prefixes and scopes — never a key's value.",
      access: "read",
      responses: [
        {
          status: 200,
          description: "Every key, revoked ones too.",
          schema: z.object({ apiKeys: z.array(apiKeySchema) }),
        },
      ],
    }),
    post: operation("API keys", {
      id: "createApiKey",
      summary: "Create a key",
      description: "The key's value is in this answer only. The owner scope needs an instance owner.",
      access: "manage",
      body: createApiKeySchema,
      responses: [{ status: 201, description: "The key and its value.", schema: createdApiKeySchema }],
    }),
  },
  "/api/v1/api-keys/{id}": {
    delete: operation("API keys", {
      id: "revokeApiKey",
      summary: "Revoke a key",
      description: "Anything using it gets 401 from the next request.",
      access: "manage",
      path: pathParams({ id: "The key's id." }),
      responses: [{ status: 204, description: "Revoked." }],
    }),
  },
  "/api/v1/members": {
    get: operation("Members", {
      id: "listMembers",
      summary: "The workspace's people and their roles",
      access: "read",
      responses: [
        {
          status: 200,
          description: "Oldest member first.",
          schema: z.object({ members: z.array(memberSchema) }),
        },
      ],
    }),
  },
  "/api/v1/members/{userId}": {
    patch: operation("Members", {
      id: "changeMemberRole",
      summary: "Change a member's role",
      access: "manage",
      path: pathParams({ userId: "The member's user id." }),
      body: changeRoleSchema,
      responses: [{ status: 200, description: "The member.", schema: z.object({ member: memberSchema }) }],
      errors: [lastAdmin],
    }),
    delete: operation("Members", {
      id: "removeMember",
      summary: "Remove a member from the workspace (the account stays)",
      access: "manage",
      path: pathParams({ userId: "The member's user id." }),
      responses: [{ status: 204, description: "Removed." }],
      errors: [lastAdmin],
    }),
  },
  "/api/v1/invitations": {
    get: operation("Members", {
      id: "listInvitations",
      summary: "Invitation links not yet used, revoked or expired",
      access: "manage",
      responses: [
        {
          status: 200,
          description: "Pending links.",
          schema: z.object({ invitations: z.array(pendingInvitationSchema) }),
        },
      ],
    }),
    post: operation("Members", {
      id: "createInvitation",
      summary: "An invitation link for one person",
      description: "No email is sent: pass the link on. It is in this answer only and works for 7 days.",
      access: "manage",
      body: createInvitationSchema,
      responses: [{ status: 201, description: "The link.", schema: createdInvitationSchema }],
    }),
  },
  "/api/v1/invitations/{id}": {
    delete: operation("Members", {
      id: "revokeInvitation",
      summary: "Revoke a pending invitation",
      description: "Its link stops working at once.",
      access: "manage",
      path: pathParams({ id: "The invitation's id." }),
      responses: [{ status: 204, description: "Revoked." }],
    }),
  },
  "/api/v1/workspaces": {
    get: operation("Workspaces", {
      id: "listWorkspaces",
      summary: "The caller's workspaces and roles",
      description: "An API key belongs to one workspace.",
      access: "read",
      responses: [
        {
          status: 200,
          description: "The workspaces.",
          schema: z.object({ workspaces: z.array(workspaceSchema) }),
        },
      ],
    }),
    post: operation("Workspaces", {
      id: "createWorkspace",
      summary: "Create a workspace, with the signed-in person as its admin",
      description:
        "The instance policy says who may (instance owners only by default). A person's session only: an API key cannot.",
      access: "read",
      body: createWorkspaceSchema,
      responses: [
        { status: 201, description: "The workspace.", schema: z.object({ workspace: workspaceSchema }) },
      ],
      errors: [[409, "A workspace with a similar name exists"]],
    }),
  },
};
