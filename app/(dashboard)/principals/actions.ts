"use server";

import { z } from "zod";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { auditActorOf } from "@/lib/auth/actor";
import type { ApiKeyDto } from "@/lib/auth/api-keys";
import { createPrincipalKey, replaceGrants, revokePrincipalKey } from "@/lib/principals/principal-access";
import { createPrincipal, deletePrincipal, type PrincipalDto } from "@/lib/principals/principals";
import { parseOrThrow } from "@/lib/validation";

// Principals, their keys and grants are workspace administration: "manage", as on the REST API.
// Inputs stay `unknown`: the services validate them with the same zod schemas as the routes.

const idParam = z.string().min(1).max(100);
const principalIdOf = (id: unknown) => parseOrThrow(idParam, id, "The principal id");

export async function createPrincipalAction(input: unknown): Promise<ActionResult<PrincipalDto>> {
  return runAction("manage", ({ db, tenant, actor }) =>
    createPrincipal(db, { tenantId: tenant.id, input, by: auditActorOf(actor) }),
  );
}

export async function deletePrincipalAction(id: unknown): Promise<ActionResult<null>> {
  return runAction("manage", async ({ db, tenant, actor }) => {
    await deletePrincipal(db, { tenantId: tenant.id, id: principalIdOf(id), by: auditActorOf(actor) });
    return null;
  });
}

/** The key's value is in this result and nowhere else, ever: the page shows it once. */
export async function createPrincipalKeyAction(
  principalId: unknown,
  input: unknown,
): Promise<ActionResult<{ key: string; apiKey: ApiKeyDto }>> {
  return runAction("manage", ({ db, tenant, actor }) =>
    createPrincipalKey(db, {
      tenantId: tenant.id,
      principalId: principalIdOf(principalId),
      input,
      by: auditActorOf(actor),
    }),
  );
}

export async function revokePrincipalKeyAction(
  principalId: unknown,
  keyId: unknown,
): Promise<ActionResult<null>> {
  return runAction("manage", async ({ db, tenant, actor }) => {
    await revokePrincipalKey(db, {
      tenantId: tenant.id,
      principalId: principalIdOf(principalId),
      keyId: parseOrThrow(idParam, keyId, "The key id"),
      by: auditActorOf(actor),
    });
    return null;
  });
}

/** Replaces the whole set: what the admin sees after saving is exactly what is enforced. */
export async function replaceGrantsAction(
  principalId: unknown,
  input: unknown,
): Promise<ActionResult<string[]>> {
  return runAction("manage", ({ db, tenant, actor }) =>
    replaceGrants(db, {
      tenantId: tenant.id,
      principalId: principalIdOf(principalId),
      input,
      by: auditActorOf(actor),
    }),
  );
}
