"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { type ImportReport, importServers } from "@/lib/servers/import-export/import-servers";

/**
 * The Import dialog: the same service and request shape as POST /api/v1/servers/import
 * ({config, format, dryRun}); the input is validated there.
 */
export async function importServersAction(input: unknown): Promise<ActionResult<ImportReport>> {
  const result = await runAction("manage", ({ db, tenant }) =>
    importServers(db, { tenantId: tenant.id, input }),
  );
  if (result.ok && !result.data.dryRun) revalidatePath("/servers");
  return result;
}
