import { z } from "zod";
import { effectClasses } from "@/db/schema";
import type { InstanceOverview } from "@/lib/auth/instance-overview";
import type { InstanceOwnerDto } from "@/lib/auth/instance-owners";
import { type LimitsPolicy, limitsPolicySchema } from "@/lib/limits/limits-policy";
import { type ApprovalPolicy, approvalPolicySchema } from "@/lib/policy/approval-rules";
import type { EffectivePolicy } from "@/lib/policy/effective-policy";
import { type EgressPolicy, egressPolicySchema } from "@/lib/policy/egress-schema";
import { type InstancePolicy, instancePolicySchema } from "@/lib/policy/instance-policy-schema";
import type { LaunchSpec } from "@/lib/policy/launch-spec-pattern";
import type { PolicyChange } from "@/lib/servers/policy-changes";
import { describes } from "../type-check";

/**
 * Policies as answered. The egress and instance policies are answered as their own schemas parse
 * them (zod-openapi renders a schema's output side for responses); the approval policy's schema
 * sorts its effects with a transform, which has no output side to render, so it is described here.
 */

/** One schema for both sides: the document shows `EgressPolicy` (request) and `EgressPolicyOutput`. */
export const egressPolicyDocSchema = egressPolicySchema.meta({
  id: "EgressPolicy",
  description: "Which commands a stdio server may launch and which hosts an HTTP server may be reached at.",
});
export const egressPolicyOutputSchema = describes<EgressPolicy>()(egressPolicyDocSchema);
export const limitsPolicyDocSchema = limitsPolicySchema.meta({
  id: "LimitsPolicy",
  description:
    "Calls per minute (a token bucket), calls in flight and calls waiting for approval, per principal and per server. " +
    "`principal` and `server` apply to each one; `principals` and `servers` override them by name (a field left out " +
    "inherits, null is unlimited). Ranges: callsPerMinute 1–100000, concurrentCalls 1–1000, pendingApprovals 1–10000.",
});
export const limitsPolicyOutputSchema = describes<LimitsPolicy>()(limitsPolicyDocSchema);
export const instancePolicyDocSchema = instancePolicySchema.meta({
  id: "InstancePolicy",
  description: "What any workspace's servers may ever do on this machine; workspace policies narrow it.",
});
export const instancePolicyOutputSchema = describes<InstancePolicy>()(instancePolicyDocSchema);

export const approvalPolicyOutputSchema = describes<ApprovalPolicy>()(
  z
    .object({
      requireApprovalFor: z
        .array(z.enum(effectClasses))
        .meta({ description: "Effects whose calls wait for an approver (per-tool rules can override)." }),
      forbidSelfApproval: z.boolean().meta({
        description:
          "Nobody approves a call they requested (a key counts as its creator; a principal's call as its keys' creators). On in new workspaces.",
      }),
      expirySeconds: z.number().meta({ description: "A pending approval expires after this long." }),
    })
    .meta({ id: "ApprovalPolicy" }),
);
// The request side stays the real schema; the answer is what it parses to.
export const approvalPolicyInputSchema = approvalPolicySchema;

const launchSpecSchema = describes<LaunchSpec>()(
  z.object({
    program: z.string(),
    args: z.array(z.string()),
    rest: z.boolean(),
    audience: z.enum(["owners", "everyone"]),
    why: z.string(),
  }),
);

export const effectivePolicySchema = describes<EffectivePolicy>()(
  z
    .object({
      http: z.object({
        allowedSchemes: z.array(z.enum(["https", "http"])),
        allowLoopback: z.boolean(),
        allowPrivate: z.boolean(),
        allowAddresses: z.array(z.string()),
        allowHosts: z.array(z.string()),
        denyHosts: z.array(z.string()),
      }),
      launchSpecs: z
        .array(launchSpecSchema)
        .meta({ description: "The instance's launch specs whose program the workspace also allows." }),
      fromEnv: z.array(z.string()).meta({ description: 'Variables `{"fromEnv": …}` may read.' }),
      allowedEnv: z.array(z.string()),
      cwdRoots: z.array(z.string()),
    })
    .meta({
      id: "EffectivePolicy",
      description: "What the workspace's servers may do: the instance policy narrowed by the workspace's.",
    }),
);

/** A policy PUT: the saved policy and the servers it disabled (`?disableAffected=true`). */
const disabledServersSchema = z
  .array(z.string())
  .meta({ description: "Servers the new policy refuses, now disabled: `name (in workspace)`." });

export const egressPolicyChangeSchema = describes<PolicyChange<EgressPolicy>>()(
  z.object({ policy: egressPolicyOutputSchema, disabledServers: disabledServersSchema }),
);
export const instancePolicyChangeSchema = describes<PolicyChange<InstancePolicy>>()(
  z.object({ policy: instancePolicyOutputSchema, disabledServers: disabledServersSchema }),
);

export const instanceOwnerSchema = describes<InstanceOwnerDto>()(
  z
    .object({ userId: z.string(), name: z.string(), email: z.string(), since: z.string() })
    .meta({ id: "InstanceOwner" }),
);

export const instanceOverviewSchema = describes<InstanceOverview>()(
  z.object({
    policy: instancePolicyOutputSchema,
    owners: z.array(instanceOwnerSchema),
    stdio: z
      .object({
        runsAs: z.string(),
        isolated: z.boolean().meta({ description: "stdio servers run as another user than Switchboard." }),
        notes: z.array(z.string()),
      })
      .meta({ description: "What a stdio server can reach on this machine." }),
    searchPath: z.string().meta({ description: "The PATH programs are resolved on." }),
  }),
);
