"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { auditActorOf, authorityOf } from "@/lib/auth/actor";
import { deleteServer, registerServer, updateServer } from "@/lib/servers/registry";
import type { ServerDto } from "@/lib/servers/server-dto";
import {
  checkServerHealth,
  checkServersHealth,
  reconnectServer,
  refreshServerCatalog,
} from "@/lib/servers/server-operations";
import { parseOrThrow } from "@/lib/validation";

const nameParam = z.string().min(1).max(100);

// Inputs are `unknown` on purpose: the service validates them with the same zod schema as the REST API.

export async function createServerAction(input: unknown): Promise<ActionResult<ServerDto>> {
  const result = await runAction("manage", ({ db, tenant, actor }) =>
    registerServer(db, { tenantId: tenant.id, input, authority: authorityOf(actor) }),
  );
  if (result.ok) revalidatePath("/servers");
  return result;
}

export async function updateServerAction(name: string, patch: unknown): Promise<ActionResult<ServerDto>> {
  const result = await runAction("manage", ({ db, tenant, actor }) =>
    updateServer(db, {
      tenantId: tenant.id,
      name: parseOrThrow(nameParam, name, "The server name"),
      patch,
      authority: authorityOf(actor),
    }),
  );
  if (result.ok) revalidatePath("/servers");
  return result;
}

export async function deleteServerAction(name: string): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await deleteServer(db, {
      tenantId: tenant.id,
      name: parseOrThrow(nameParam, name, "The server name"),
      by: auditActorOf(actor),
    });
    return null;
  });
  if (result.ok) revalidatePath("/servers");
  return result;
}

/** Live operations on a server (the same services as the REST routes). */
export async function checkServerHealthAction(name: string) {
  return runAction("manage", ({ db, tenant }) =>
    checkServerHealth(db, { tenantId: tenant.id, name: parseOrThrow(nameParam, name, "The server name") }),
  );
}

/** Every enabled server of the workspace, probed in one go (the Servers page's "Check all"). */
export async function checkAllServersHealthAction() {
  return runAction("manage", ({ db, tenant }) => checkServersHealth(db, { tenantId: tenant.id, input: {} }));
}

export async function reconnectServerAction(name: string) {
  return runAction("manage", ({ db, tenant }) =>
    reconnectServer(db, { tenantId: tenant.id, name: parseOrThrow(nameParam, name, "The server name") }),
  );
}

export async function refreshServerCatalogAction(name: string) {
  return runAction("manage", ({ db, tenant }) =>
    refreshServerCatalog(db, { tenantId: tenant.id, name: parseOrThrow(nameParam, name, "The server name") }),
  );
}
