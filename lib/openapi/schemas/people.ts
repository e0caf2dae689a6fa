import { z } from "zod";
import { apiKeyScopes, roles } from "@/db/schema";
import type { ApiKeyDto, createApiKey } from "@/lib/auth/api-keys";
import type { AuditPage } from "@/lib/auth/audit-log";
import type { createInvitation, PendingInvitationDto } from "@/lib/auth/invitations";
import type { MemberDto } from "@/lib/auth/members";
import type { PrincipalDto } from "@/lib/principals/principals";
import type { WorkspaceDto } from "@/lib/tenancy/workspaces";
import { describes } from "../type-check";

/** Who may do what: API keys, members, invitations, workspaces, principals, the audit trail. */

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

const roleSchema = z.enum(roles).meta({ id: "Role" });

export const apiKeySchema = describes<ApiKeyDto>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      prefix: z.string().meta({ description: "The first characters of the key (`sb_…`), to recognise it." }),
      scopes: z.array(z.enum(apiKeyScopes)),
      principalId: z
        .string()
        .nullable()
        .meta({ description: "An agent's key: the principal it belongs to." }),
      principalName: z.string().nullable(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
      revokedAt: z.string().nullable(),
      creatorName: z.string().nullable().meta({
        description: "The person the key acts for; null for the bootstrap key or a deleted account.",
      }),
      inactiveReason: z.string().nullable().meta({
        description:
          'Why the key does nothing although not revoked: a key acts with at most its creator\'s current rights ("creator Ada was removed", "creator Ada is now a viewer"). Null when active.',
      }),
    })
    .meta({ id: "ApiKey", description: "A key as listed: never its value." }),
);

export const createdApiKeySchema = describes<Result<typeof createApiKey>>()(
  z
    .object({
      key: z.string().meta({ description: "The key's value, shown in this answer only." }),
      apiKey: apiKeySchema,
    })
    .meta({ id: "CreatedApiKey" }),
);

export const memberSchema = describes<MemberDto>()(
  z
    .object({
      userId: z.string(),
      name: z.string(),
      email: z.string(),
      role: roleSchema,
      joinedAt: z.string(),
      lastSignedInAt: z.string().nullable(),
    })
    .meta({ id: "Member" }),
);

export const pendingInvitationSchema = describes<PendingInvitationDto>()(
  z
    .object({
      id: z.string(),
      role: roleSchema,
      invitedBy: z.string().nullable().meta({ description: "The admin who made it; null for an API key." }),
      createdAt: z.string(),
      expiresAt: z.string(),
    })
    .meta({ id: "Invitation" }),
);

export const createdInvitationSchema = describes<Result<typeof createInvitation>>()(
  z.object({
    id: z.string(),
    url: z.string().meta({ description: "The link to pass on, shown in this answer only." }),
    role: roleSchema,
    expiresAt: z.string(),
  }),
);

export const workspaceSchema = describes<WorkspaceDto>()(
  z
    .object({ id: z.string(), name: z.string(), slug: z.string(), role: roleSchema })
    .meta({ id: "Workspace" }),
);

export const principalSchema = describes<PrincipalDto>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      grants: z.array(z.string()).meta({ description: "Tool patterns, sorted." }),
      keys: z
        .array(apiKeySchema)
        .meta({ description: "Active and revoked keys (values are never shown again)." }),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: "Principal", description: "An agent or MCP client of the workspace." }),
);

export const auditPageSchema = describes<AuditPage>()(
  z.object({
    entries: z.array(
      z
        .object({
          id: z.string(),
          at: z.string(),
          action: z.string().meta({ description: 'e.g. "member.invited".' }),
          actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
          subject: z.string().nullable(),
          detail: z.string().nullable(),
          ipAddress: z.string().nullable(),
        })
        .meta({ id: "AuditEntry" }),
    ),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` for older entries; null at the end." }),
  }),
);
