import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { tools } from "@/db/schema";
import { editedFieldsOf } from "@/lib/calls/argument-diff";
import type { CallView } from "@/lib/calls/call-view";
import { REDACTED, scrubValue } from "@/lib/calls/scrub";
import { openSealedArguments, sealArguments } from "@/lib/calls/sealed-arguments";
import { cachedWorkspaceSecrets } from "@/lib/calls/workspace-secrets";
import { canonicalJson } from "@/lib/catalog/hashing";
import type { Queryable } from "@/lib/db/client";
import { AppError, type FieldErrors } from "@/lib/errors";
import { MAX_BODY_BYTES } from "@/lib/http/read-json";
import { checkAgainstSchema } from "@/lib/tool-schema-check";
import { mergeEditedArguments } from "./merge-edit";

/**
 * "Approve with edits": the approver's argument set, turned into what the call runs with.
 *
 * The approver sees the stored (scrubbed) arguments, where a workspace secret reads [redacted].
 * Wherever the edit leaves a value as shown, the caller's real value is kept (opened from the
 * sealed copy), so a secret still reaches the tool; wherever the approver changed a value, theirs
 * is taken — and a changed value may not keep a [redacted] placeholder, which would reach the tool
 * as the literal text. The result is checked against the tool's current input schema, then stored
 * like any call's arguments: scrubbed, the real values sealed when scrubbing changed them.
 *
 * Only the arguments change: the tool, the requester and therefore the grants stay the call's.
 */

export type ArgumentEdit = {
  /** scrubbed, to store in calls.arguments */
  arguments: Record<string, unknown>;
  sealedArguments: string | null;
  /** the caller's arguments as stored before, to keep in calls.requested_arguments */
  requestedArguments: Record<string, unknown>;
  /** top-level fields that differ, sorted */
  editedFields: string[];
};

/** The edit, or undefined when the approver's arguments are the ones asked for (a plain approval). */
export async function prepareArgumentEdit(
  db: Queryable,
  params: { view: CallView; edited: Record<string, unknown> },
): Promise<ArgumentEdit | undefined> {
  const { call } = params.view;
  if (call.kind !== "tool_call")
    throw new AppError(
      "validation",
      "Only a tool call's arguments can be edited; approve or deny this read as it was asked.",
    );
  const size = Buffer.byteLength(JSON.stringify(params.edited), "utf8");
  if (size > MAX_BODY_BYTES)
    throw new AppError(
      "payload_too_large",
      `The edited arguments are ${size} bytes; a call's arguments may be at most ${MAX_BODY_BYTES} bytes.`,
    );
  const requested = call.arguments;
  if (canonicalJson(params.edited) === canonicalJson(requested)) return undefined;

  const real = call.sealedArguments
    ? openSealedArguments(call.sealedArguments, { tenantId: call.tenantId, callId: call.id })
    : requested;
  const { merged, placeholders } = mergeEditedArguments(params.edited, requested, real);
  if (placeholders.length > 0)
    throw new AppError(
      "validation",
      `${placeholders.join(", ")} still ${placeholders.length === 1 ? "holds" : "hold"} ${REDACTED} in a changed value: that is a secret you cannot see. Type the whole value, or leave the field as it was asked.`,
      {
        fieldErrors: Object.fromEntries(
          placeholders.map((p) => [p, [`Replace ${REDACTED} or undo the change.`]]),
        ),
      },
    );

  await assertFitsSchema(db, { call, args: merged });
  const secrets = await cachedWorkspaceSecrets(db, { tenantId: call.tenantId });
  const scrubbed = scrubValue(merged, secrets);
  // A retyped secret scrubs back to what was shown: the stored arguments do not differ, the real
  // ones do — it still runs with the new value, and the note names the field.
  const visible = editedFieldsOf(requested, scrubbed);
  const editedFields = visible.length > 0 ? visible : editedFieldsOf(real, merged);
  if (editedFields.length === 0) return undefined;
  return {
    arguments: scrubbed,
    sealedArguments:
      JSON.stringify(merged) !== JSON.stringify(scrubbed)
        ? sealArguments(merged, { tenantId: call.tenantId, callId: call.id })
        : null,
    requestedArguments: requested,
    editedFields,
  };
}

/** The tool's current input schema decides; each problem is named beside its field. */
async function assertFitsSchema(
  db: Queryable,
  params: { call: CallView["call"]; args: Record<string, unknown> },
): Promise<void> {
  const [tool] = await db
    .select({ definition: tools.definition })
    .from(tools)
    .where(
      and(
        eq(tools.serverId, params.call.serverId ?? ""),
        eq(tools.name, params.call.toolName),
        isNull(tools.removedAt),
      ),
    );
  if (!tool)
    throw new AppError(
      "validation",
      `${params.call.gatewayName} is no longer offered by its server, so edited arguments cannot be checked; approve the call as it was asked, or deny it.`,
    );
  const problems = checkAgainstSchema(tool.definition.inputSchema, params.args);
  // null: a schema ajv cannot compile here; the tool still validates its own input.
  if (!problems || problems.length === 0) return;
  const fieldErrors: FieldErrors = Object.create(null);
  for (const { path, problem } of problems) {
    const field = path.join(".") || "_";
    const list = Object.hasOwn(fieldErrors, field) ? (fieldErrors[field] as string[]) : [];
    list.push(`${path.join(".") || "The arguments"} ${problem}.`);
    Object.defineProperty(fieldErrors, field, {
      value: list,
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  const first = problems
    .slice(0, 3)
    .map(({ path, problem }) => `${path.join(".") || "the arguments"} ${problem}`)
    .join("; ");
  throw new AppError(
    "validation",
    `The edited arguments do not fit ${params.call.gatewayName}'s input schema: ${first}${problems.length > 3 ? `; and ${problems.length - 3} more` : ""}.`,
    { fieldErrors: { ...fieldErrors } },
  );
}
