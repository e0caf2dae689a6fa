import { z } from "zod";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import {
  applyToolPatch,
  type GovernedToolDto,
  getGovernedTools,
  type ToolPatch,
  updateToolSchema,
} from "./governed-tools";

/**
 * Many tools changed at once (PATCH /api/v1/tools): each change is a single tool's patch, written
 * by the same applyToolPatch a single update uses. The caller runs it inside one transaction, so
 * one refused change (an unknown id, "never" on an unclassified tool) leaves every tool as it was.
 */

/** Enough for any one server's catalog in a request; a larger job is several requests. */
export const MAX_TOOLS_PER_UPDATE = 200;

export const updateToolsSchema = z.strictObject({
  changes: z
    .array(
      updateToolSchema.extend({
        id: z.string({ error: "id is the tool's id." }).min(1, { error: "id is the tool's id." }).max(100),
      }),
      { error: "changes is a list of { id, …fields to set }." },
    )
    .min(1, { error: "changes lists at least one tool." })
    .max(MAX_TOOLS_PER_UPDATE, {
      error: `changes lists at most ${MAX_TOOLS_PER_UPDATE} tools; send the rest in another request.`,
    })
    .refine((changes) => new Set(changes.map((change) => change.id)).size === changes.length, {
      error: "Each tool appears once in changes.",
    }),
});

export type ToolChange = { before: GovernedToolDto; after: GovernedToolDto; patch: ToolPatch };

export async function updateTools(
  db: Database,
  params: { tenantId: string; input: unknown; byName: string | null },
): Promise<ToolChange[]> {
  const { changes } = parseOrThrow(updateToolsSchema, params.input, "The tool update");
  const ids = changes.map((change) => change.id);
  const before = await getGovernedTools(db, {
    tenantId: params.tenantId,
    ids,
    // The id the caller sent, and nothing about whether it exists in another workspace.
    notFound: (id) =>
      `There is no tool with id "${id.slice(0, 100)}" in this workspace; nothing was changed.`,
  });
  for (const [index, current] of before.entries()) {
    const { id: _id, ...patch } = changes[index] as (typeof changes)[number];
    try {
      await applyToolPatch(db, { tenantId: params.tenantId, current, patch, byName: params.byName });
    } catch (error) {
      if (error instanceof AppError && error.code === "validation")
        throw new AppError("validation", `${error.message} Nothing was changed.`, {
          fieldErrors: prefixFields(error.fieldErrors, `changes.${index}`),
        });
      throw error;
    }
  }
  const after = await getGovernedTools(db, {
    tenantId: params.tenantId,
    ids,
    notFound: () => "A tool vanished while it was being changed.",
  });
  return before.map((tool, index) => ({
    before: tool,
    after: after[index] as GovernedToolDto,
    patch: changes[index] as ToolPatch,
  }));
}

function prefixFields(
  fieldErrors: Record<string, string[]> | undefined,
  prefix: string,
): Record<string, string[]> | undefined {
  if (!fieldErrors) return undefined;
  return Object.fromEntries(
    Object.entries(fieldErrors).map(([field, errors]) => [`${prefix}.${field}`, errors]),
  );
}
