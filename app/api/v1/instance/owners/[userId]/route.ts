// DELETE /api/v1/instance/owners/{userId} — no longer an instance owner (the last one stays)
import { removeInstanceOwner } from "@/lib/auth/instance-owners";
import { ownerRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const DELETE = ownerRoute<{ userId: string }>(async ({ db, params, authority }) => {
  await removeInstanceOwner(db, { userId: params.userId, authority });
  return new Response(null, { status: 204 });
});
