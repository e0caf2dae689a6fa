import { z } from "zod";
import { approvalStatuses, callKinds, callStatuses } from "@/db/schema";
import type { ApprovalDto } from "@/lib/approvals/list-approvals";
import { callOutcomes } from "@/lib/calls/call-outcome";
import type { ApprovalInfo, CallDto, CallSummary, Party } from "@/lib/calls/call-view";
import type { TimelineEntry } from "@/lib/calls/read-calls";
import type { BoundedResult } from "@/lib/calls/result-bounds";
import { describes } from "../type-check";
import { effectSchema } from "./catalog";

/** A tool call through the governed path, its approval, and its timeline. */

export const partySchema = describes<Party>()(
  z
    .object({ kind: z.enum(["principal", "operator", "api_key"]), id: z.string(), name: z.string() })
    .meta({ id: "Party", description: "Who asked or decided: a principal, a person, or an API key." }),
);

export const approvalInfoSchema = describes<ApprovalInfo>()(
  z
    .object({
      id: z.string(),
      status: z.enum(approvalStatuses),
      requiredBecause: z.string().nullable(),
      reason: z.string().nullable().meta({ description: "The decider's reason, if they gave one." }),
      decidedBy: partySchema.nullable(),
      decidedAt: z.string().nullable(),
      expiresAt: z.string(),
      createdAt: z.string(),
    })
    .meta({ id: "ApprovalInfo" }),
);

const summaryFields = {
  id: z.string(),
  kind: z.enum(callKinds).meta({
    description:
      "What was asked of the server: a tool call, a resource read (resources/read) or a prompt get (prompts/get).",
  }),
  tool: z.string().meta({
    description:
      "The gateway name asked for, `<server>__<tool>`; for a resource read its URI, for a prompt get `<server>__<prompt>`.",
  }),
  serverId: z.string().nullable(),
  serverName: z.string().nullable(),
  toolName: z.string(),
  effect: effectSchema,
  status: z.enum(callStatuses).meta({ description: "The stored state; see `outcome` for how it ended." }),
  outcome: z.enum(callOutcomes).meta({
    description:
      "How it ended, as people read it: `status`, except that a succeeded call whose tool answered `isError: true` is `tool_error`.",
  }),
  requester: partySchema,
  idempotencyKey: z.string().nullable(),
  isError: z.boolean().nullable().meta({ description: "The tool reported an error; null until finished." }),
  error: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .meta({ description: "Why the call produced no result (policy_denied, timeout, upstream_error…)." }),
  approval: approvalInfoSchema.nullable(),
  allowedByRule: z.string().nullable().meta({
    description: "The allow rule that let the call run without waiting for an approver, if one did.",
  }),
  durationMs: z.number().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
};

export const callSummarySchema = describes<CallSummary>()(
  z.object(summaryFields).meta({ id: "CallSummary" }),
);

const boundedResultSchema = describes<BoundedResult>()(
  z
    .looseObject({
      content: z.array(z.unknown()).optional(),
      isError: z.boolean().optional(),
      truncated: z
        .object({ originalBytes: z.number(), limitBytes: z.number() })
        .optional()
        .meta({ description: "Present only when the result was cut to the size budget." }),
    })
    .meta({ id: "CallResult", description: "The tool's MCP result, secrets scrubbed, bounded in size." }),
);

const detailFields = {
  arguments: z.record(z.string(), z.unknown()).meta({
    description:
      "As stored: secret values replaced by [redacted]. When an approver edited them, the arguments the call ran with.",
  }),
  argumentEdit: z
    .object({
      requestedArguments: z
        .record(z.string(), z.unknown())
        .meta({ description: "The arguments as the caller asked for them (scrubbed)." }),
      editedFields: z.array(z.string()).meta({ description: "The top-level fields the approver changed." }),
    })
    .nullable()
    .meta({
      id: "ArgumentEdit",
      description: "Set when an approver changed the arguments before approving; null otherwise.",
    }),
  result: boundedResultSchema.nullable().meta({
    description:
      'null until the call finished. For a call whose arguments an approver edited, the tool\'s result ends with a text item saying so, and `_meta["switchboard/editedArguments"]` holds {fields, requested, approved}.',
  }),
};

export const callSchema = describes<CallDto>()(
  z.object({ ...summaryFields, ...detailFields }).meta({ id: "Call" }),
);

export const timelineEntrySchema = describes<TimelineEntry>()(
  z.object({
    id: z.number(),
    type: z.string().meta({ description: "The event type, e.g. call.approved." }),
    at: z.string(),
    detail: z.record(z.string(), z.unknown()),
  }),
);

const { approval: _approval, ...callWithoutApproval } = summaryFields;

export const approvalSchema = describes<ApprovalDto>()(
  z
    .object({
      ...approvalInfoSchema.shape,
      call: z.object({
        ...callWithoutApproval,
        arguments: detailFields.arguments,
        argumentEdit: detailFields.argumentEdit,
      }),
      count: z.number().int().meta({
        description:
          "Pending: how many identical requests this item stands for (same requester, tool and arguments; 1 when alone). Decided: 1.",
      }),
      duplicateCallIds: z.array(z.string()).meta({
        description:
          "Pending: the other calls of the group, oldest first; `withDuplicates: true` on a decision decides them too.",
      }),
    })
    .meta({ id: "Approval", description: "An approval with the call it holds back." }),
);
