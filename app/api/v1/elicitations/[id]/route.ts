// POST /api/v1/elicitations/{id} — answer a server's question ({action, content?}); a second answer is a 409
import { auditActorOf } from "@/lib/auth/actor";
import { answerElicitation } from "@/lib/elicitations/answer-elicitation";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>("decide", async ({ req, db, actor, tenant, params }) => ({
  elicitation: await answerElicitation(db, {
    tenantId: tenant.id,
    id: params.id,
    input: await readJsonBody(req),
    by: auditActorOf(actor),
  }),
}));
