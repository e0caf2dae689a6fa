// PUT /api/v1/secrets/{name} — write a secret (write-only) · DELETE — remove it
import { auditActorOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { deleteSecret, putSecret, putSecretSchema, secretNameSchema } from "@/lib/secrets/secrets";
import { parseOrThrow } from "@/lib/validation";

export const dynamic = "force-dynamic";

type Params = { name: string };

export const PUT = apiRoute<Params>("manage", async ({ req, db, tenant, actor, params }) => {
  const name = parseOrThrow(secretNameSchema, params.name, "The secret name");
  const { value } = parseOrThrow(putSecretSchema, await readJsonBody(req, 80 * 1024), "The secret");
  const { created, ...secret } = await putSecret(db, {
    tenantId: tenant.id,
    name,
    value,
    by: auditActorOf(actor),
  });
  return Response.json({ secret }, { status: created ? 201 : 200 });
});

export const DELETE = apiRoute<Params>("manage", async ({ db, tenant, actor, params }) => {
  await deleteSecret(db, { tenantId: tenant.id, name: params.name, by: auditActorOf(actor) });
  return new Response(null, { status: 204 });
});
