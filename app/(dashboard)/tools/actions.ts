"use server";

import { z } from "zod";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { auditActorOf } from "@/lib/auth/actor";
import type { GovernedToolDto } from "@/lib/catalog/governed-tools";
import { changeTool, changeTools } from "@/lib/policy/tool-changes";
import { parseOrThrow } from "@/lib/validation";

const toolId = z.string().min(1).max(100);

/**
 * Effect, enabled, approval rule: an admin's decision (the same "manage" permission as PATCH
 * /api/v1/tools/{id}). The patch stays `unknown`: the service validates it with the REST schema.
 */
export async function updateToolAction(id: string, patch: unknown): Promise<ActionResult<GovernedToolDto>> {
  return runAction("manage", ({ db, tenant, actor }) =>
    changeTool(db, {
      tenantId: tenant.id,
      id: parseOrThrow(toolId, id, "The tool id"),
      input: patch,
      by: auditActorOf(actor),
    }),
  );
}

/** Several tools at once, all or nothing (PATCH /api/v1/tools): `{ changes: [{ id, …patch }] }`. */
export async function updateToolsAction(input: unknown): Promise<ActionResult<GovernedToolDto[]>> {
  return runAction("manage", ({ db, tenant, actor }) =>
    changeTools(db, { tenantId: tenant.id, input, by: auditActorOf(actor) }),
  );
}
