// GET /api/v1/calls/{id} — one call with its timeline (a principal sees only its own calls)
import { getCall } from "@/lib/calls/read-calls";
import { callReaderOf } from "@/lib/calls/requester";
import { callerRoute } from "@/lib/http/caller-route";

export const dynamic = "force-dynamic";

export const GET = callerRoute<{ id: string }>(async ({ db, actor, tenant, params }) =>
  getCall(db, { tenantId: tenant.id, reader: callReaderOf(actor), callId: params.id }),
);
