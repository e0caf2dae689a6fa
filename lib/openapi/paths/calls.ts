import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { decideInputSchema } from "@/lib/approvals/decide-approval";
import { type listApprovals, listApprovalsQuerySchema } from "@/lib/approvals/list-approvals";
import { postCallBodySchema, waitQuerySchema } from "@/lib/calls/call-body";
import { type getCall, type listCalls, listCallsQuerySchema } from "@/lib/calls/read-calls";
import { operation, pathParams } from "../operation";
import {
  approvalInfoSchema,
  approvalSchema,
  callSchema,
  callSummarySchema,
  timelineEntrySchema,
} from "../schemas/calls";
import { describes } from "../type-check";

/** /api/v1/calls and /api/v1/approvals: the one governed path to a tool, and its approvals. */

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

const callBody = z.object({ call: callSchema });
const callId = pathParams({ id: "The call's id." });
const cursorText = "Pass as `cursor` for the next page; null at the end.";

const callPage = describes<Result<typeof listCalls>>()(
  z.object({
    calls: z.array(callSummarySchema),
    nextCursor: z.string().nullable().meta({ description: cursorText }),
  }),
);
const callWithTimeline = describes<Result<typeof getCall>>()(
  z.object({
    call: callSchema,
    timeline: z.array(timelineEntrySchema).meta({ description: "Every event about the call, in order." }),
  }),
);
const approvalPage = describes<Result<typeof listApprovals>>()(
  z.object({
    approvals: z.array(approvalSchema),
    nextCursor: z.string().nullable().meta({ description: cursorText }),
  }),
);

const decide = (decision: "approve" | "deny") =>
  operation("Approvals", {
    id: `${decision}Call`,
    summary: decision === "approve" ? "Approve a pending call" : "Deny a pending call",
    description:
      decision === "approve"
        ? "The call runs at once; if no process starts it within `startWithinSeconds` (default SWITCHBOARD_APPROVED_START_SECONDS, 300) it expires unrun (`not_started`). A workspace may forbid approving one's own calls (403). `withDuplicates: true` approves the item's pending duplicates too, each on its own. `arguments` approves an edited call instead: the whole argument set (leave a `[redacted]` value as shown to keep the caller's secret), checked against the tool's input schema (400 naming the field otherwise); the caller's result then says which fields changed. Not with `withDuplicates`."
        : "The reason, if given, is returned to the caller. `withDuplicates: true` denies the item's pending duplicates too.",
    access: "decide",
    path: pathParams({ id: "The approval's id, or its call's id." }),
    body: decideInputSchema,
    isBodyOptional: true,
    responses: [
      {
        status: 200,
        description: "The decision and the call after it.",
        schema: z.object({
          approval: approvalInfoSchema.nullable(),
          call: callSchema,
          duplicates: z.array(callSchema).meta({
            description: "The duplicates decided with it (withDuplicates), each after its decision.",
          }),
        }),
      },
    ],
    errors: [[409, "Already decided, expired or withdrawn: the message says which"]],
  });

export const callPaths: ZodOpenApiPathsObject = {
  "/api/v1/calls": {
    post: operation("Calls", {
      id: "callTool",
      summary: "Call a tool through the one governed path",
      description:
        "Grants, the tool's effect and the approval policy decide: the call runs, waits for an approver, or is " +
        "denied. Waits up to `waitSeconds` for it to finish. A call with the same `idempotencyKey` and arguments " +
        "is answered with the first one.",
      access: "caller",
      body: postCallBodySchema,
      responses: [
        {
          status: 200,
          description: "The call finished, whatever its outcome (see `status`).",
          schema: callBody,
        },
        {
          status: 202,
          description: "The call waits for approval or still runs: follow it with /calls/{id}/wait.",
          schema: callBody,
          headers: { Location: { description: "/api/v1/calls/{id}" } },
        },
      ],
      errors: [
        [404, "No such tool in the workspace"],
        [
          429,
          "Over a limit (`rate_limited`, Settings → Limits): refused at once and recorded with outcome `rate_limited`; `Retry-After` and `retryAfterSeconds` say when to try again",
        ],
      ],
    }),
    get: operation("Calls", {
      id: "listCalls",
      summary: "Call history, newest first",
      access: "read",
      query: listCallsQuerySchema.extend({
        status: listCallsQuerySchema.shape.status.meta({
          description:
            "Comma-separated outcomes, e.g. `failed,tool_error`: a status, or `tool_error` (succeeded, but the tool answered `isError: true`); `succeeded` then means without a tool error.",
        }),
        kind: listCallsQuerySchema.shape.kind.meta({
          description: "Comma-separated kinds: `tool_call`, `resource_read`, `prompt_get`.",
        }),
      }),
      responses: [{ status: 200, description: "One page.", schema: callPage }],
    }),
  },
  "/api/v1/calls/{id}": {
    get: operation("Calls", {
      id: "getCall",
      summary: "One call with its timeline",
      description: "A principal sees only its own calls (another's is a 404).",
      access: "caller",
      path: callId,
      responses: [{ status: 200, description: "The call.", schema: callWithTimeline }],
    }),
  },
  "/api/v1/calls/{id}/wait": {
    get: operation("Calls", {
      id: "waitForCall",
      summary: "Wait until the call is finished or the time is up",
      description: "Disconnecting ends the wait, not the call.",
      access: "caller",
      path: callId,
      query: waitQuerySchema,
      responses: [{ status: 200, description: "The call as it is then.", schema: callBody }],
    }),
  },
  "/api/v1/approvals": {
    get: operation("Approvals", {
      id: "listApprovals",
      summary: "The approval queue, or the decided history",
      description: "`pending`: oldest first. `decided`: most recently decided first.",
      access: "read",
      query: listApprovalsQuerySchema,
      responses: [{ status: 200, description: "One page.", schema: approvalPage }],
    }),
  },
  "/api/v1/approvals/{id}/approve": { post: decide("approve") },
  "/api/v1/approvals/{id}/deny": { post: decide("deny") },
};
