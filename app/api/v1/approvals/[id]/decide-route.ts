import { decideApprovalItem } from "@/lib/approvals/decide-group";
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";

/** approve and deny share everything but the decision; the body ({reason?, startWithinSeconds?, withDuplicates?, allowRule?}) may be left out. */
export function decideRoute(decision: "approve" | "deny") {
  return apiRoute<{ id: string }>("decide", async ({ req, db, actor, tenant, params }) => {
    const hasBody = req.body !== null && req.headers.get("content-length") !== "0";
    const { call, duplicates } = await decideApprovalItem(db, {
      tenantId: tenant.id,
      id: params.id,
      decision,
      input: hasBody ? await readJsonBody(req) : {},
      decider:
        actor.kind === "operator"
          ? { kind: "operator", id: actor.userId }
          : { kind: "api_key", id: actor.keyId },
      by: auditActorOf(actor),
    });
    return { approval: call.approval, call, duplicates };
  });
}
