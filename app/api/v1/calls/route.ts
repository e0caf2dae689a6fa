// POST /api/v1/calls — call a tool through the one governed path · GET — call history (filters, paging)
import { postCallBodySchema } from "@/lib/calls/call-body";
import { isFinished } from "@/lib/calls/call-view";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import { listCalls } from "@/lib/calls/read-calls";
import { requesterFromActor } from "@/lib/calls/requester";
import { apiRoute } from "@/lib/http/api-route";
import { callerRoute } from "@/lib/http/caller-route";
import { readJsonBody } from "@/lib/http/read-json";
import { parseOrThrow } from "@/lib/validation";

export const dynamic = "force-dynamic";

/** 200 with the finished call (whatever its outcome), 202 while it waits for approval or runs. */
export const POST = callerRoute(async ({ req, db, actor, tenant }) => {
  const requester = await requesterFromActor(db, actor);
  const body = parseOrThrow(postCallBodySchema, await readJsonBody(req), "The call");
  const call = await executeToolCall(db, {
    tenantId: tenant.id,
    requester,
    tool: body.tool,
    arguments: body.arguments,
    idempotencyKey: body.idempotencyKey,
    waitMs: Math.round(body.waitSeconds * 1000),
  });
  const pending = !isFinished(call.status);
  return Response.json(
    { call },
    { status: pending ? 202 : 200, headers: pending ? { Location: `/api/v1/calls/${call.id}` } : {} },
  );
});

export const GET = apiRoute("read", async ({ req, db, tenant }) =>
  listCalls(db, {
    tenantId: tenant.id,
    reader: { kind: "workspace" },
    query: Object.fromEntries(new URL(req.url).searchParams),
  }),
);
