// GET /api/v1/calls/{id}/wait?timeoutSeconds= — returns once the call is finished or the time is up
import { waitQuerySchema } from "@/lib/calls/call-body";
import { waitForCall } from "@/lib/calls/read-calls";
import { callReaderOf } from "@/lib/calls/requester";
import { callerRoute } from "@/lib/http/caller-route";
import { parseOrThrow } from "@/lib/validation";

export const dynamic = "force-dynamic";

export const GET = callerRoute<{ id: string }>(async ({ req, db, actor, tenant, params }) => {
  const reader = callReaderOf(actor);
  const query = parseOrThrow(waitQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "The query");
  // The request's signal ends only the wait: the call itself goes on.
  const call = await waitForCall(db, {
    tenantId: tenant.id,
    reader,
    callId: params.id,
    timeoutMs: Math.round(query.timeoutSeconds * 1000),
    signal: req.signal,
  });
  return { call };
});
