import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { addOwnerSchema } from "@/lib/auth/instance-owners";
import { operation, pathParams } from "../operation";
import {
  approvalPolicyInputSchema,
  approvalPolicyOutputSchema,
  effectivePolicySchema,
  egressPolicyChangeSchema,
  egressPolicyDocSchema,
  egressPolicyOutputSchema,
  instanceOverviewSchema,
  instanceOwnerSchema,
  instancePolicyChangeSchema,
  instancePolicyDocSchema,
  instancePolicyOutputSchema,
  limitsPolicyDocSchema,
  limitsPolicyOutputSchema,
} from "../schemas/policies";

/** /api/v1/policy (the workspace's) and /api/v1/instance (what any workspace may ever do). */

const disableAffected = z.object({
  disableAffected: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "`true`: disable the servers the new policy refuses, instead of answering 409." }),
});
const refusesServers: [409, string] = [
  409,
  "The policy would refuse registered servers, listed in `fieldErrors.affectedServers` (`conflict`); nothing was saved",
];
const fieldsLeftOut = "PUT semantics: fields left out take their defaults.";

export const policyPaths: ZodOpenApiPathsObject = {
  "/api/v1/policy/approvals": {
    get: operation("Policies", {
      id: "getApprovalPolicy",
      summary: "Which effects need approval, self-approval, expiry",
      access: "read",
      responses: [
        { status: 200, description: "The policy.", schema: z.object({ policy: approvalPolicyOutputSchema }) },
      ],
    }),
    put: operation("Policies", {
      id: "putApprovalPolicy",
      summary: "Replace the approval policy",
      description: fieldsLeftOut,
      access: "manage",
      body: approvalPolicyInputSchema,
      responses: [
        {
          status: 200,
          description: "The saved policy.",
          schema: z.object({ policy: approvalPolicyOutputSchema }),
        },
      ],
    }),
  },
  "/api/v1/policy/limits": {
    get: operation("Policies", {
      id: "getLimitsPolicy",
      summary: "Calls per minute, in flight and waiting for approval, per principal and per server",
      access: "read",
      responses: [
        { status: 200, description: "The limits.", schema: z.object({ policy: limitsPolicyOutputSchema }) },
      ],
    }),
    put: operation("Policies", {
      id: "putLimitsPolicy",
      summary: "Replace the limits",
      description: `${fieldsLeftOut} A value outside its range is a 400 that names the range.`,
      access: "manage",
      body: limitsPolicyDocSchema,
      responses: [
        {
          status: 200,
          description: "The saved limits.",
          schema: z.object({ policy: limitsPolicyOutputSchema }),
        },
      ],
    }),
  },
  "/api/v1/policy/egress": {
    get: operation("Policies", {
      id: "getEgressPolicy",
      summary: "Which commands and hosts the workspace's servers may reach",
      access: "read",
      responses: [
        {
          status: 200,
          description: "The workspace's policy, and what it allows within the instance policy (`effective`).",
          schema: z.object({ policy: egressPolicyOutputSchema, effective: effectivePolicySchema }),
        },
      ],
    }),
    put: operation("Policies", {
      id: "putEgressPolicy",
      summary: "Replace the workspace's egress policy",
      description: fieldsLeftOut,
      access: "manage",
      query: disableAffected,
      body: egressPolicyDocSchema,
      responses: [{ status: 200, description: "The saved policy.", schema: egressPolicyChangeSchema }],
      errors: [refusesServers],
    }),
  },
  "/api/v1/instance": {
    get: operation("Instance", {
      id: "getInstance",
      summary: "The instance policy, its owners, and what a stdio server can reach",
      access: "owner",
      responses: [{ status: 200, description: "The overview.", schema: instanceOverviewSchema }],
    }),
  },
  "/api/v1/instance/policy": {
    get: operation("Instance", {
      id: "getInstancePolicy",
      summary: "What any workspace's servers may ever do",
      access: "owner",
      responses: [
        { status: 200, description: "The policy.", schema: z.object({ policy: instancePolicyOutputSchema }) },
      ],
    }),
    put: operation("Instance", {
      id: "putInstancePolicy",
      summary: "Replace the instance policy",
      description: `${fieldsLeftOut} Workspace egress policies narrow it, never widen it.`,
      access: "owner",
      query: disableAffected,
      body: instancePolicyDocSchema,
      responses: [{ status: 200, description: "The saved policy.", schema: instancePolicyChangeSchema }],
      errors: [refusesServers],
    }),
  },
  "/api/v1/instance/owners": {
    get: operation("Instance", {
      id: "listInstanceOwners",
      summary: "The instance owners",
      access: "owner",
      responses: [
        {
          status: 200,
          description: "The owners.",
          schema: z.object({ owners: z.array(instanceOwnerSchema) }),
        },
      ],
    }),
    post: operation("Instance", {
      id: "addInstanceOwner",
      summary: "Name another instance owner",
      access: "owner",
      body: addOwnerSchema,
      responses: [
        { status: 201, description: "The new owner.", schema: z.object({ owner: instanceOwnerSchema }) },
      ],
      errors: [
        [404, "No account with that email"],
        [409, "Already an owner"],
      ],
    }),
  },
  "/api/v1/instance/owners/{userId}": {
    delete: operation("Instance", {
      id: "removeInstanceOwner",
      summary: "No longer an instance owner",
      access: "owner",
      path: pathParams({ userId: "The owner's user id." }),
      responses: [{ status: 204, description: "Removed." }],
      errors: [[409, "The last owner stays"]],
    }),
  },
};
