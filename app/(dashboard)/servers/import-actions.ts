"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { authorityOf } from "@/lib/auth/actor";
import { type ImportReport, importServers } from "@/lib/servers/import-export/import-servers";

/**
 * The Import dialog: the same service and request shape as POST /api/v1/servers/import
 * ({config, format, dryRun}); the input is validated there.
 */
export async function importServersAction(input: unknown): Promise<ActionResult<ImportReport>> {
  const result = await runAction("manage", ({ db, tenant, actor }) =>
    importServers(db, { tenantId: tenant.id, input, authority: authorityOf(actor) }),
  );
  if (result.ok && !result.data.dryRun) revalidatePath("/servers");
  return result;
}
