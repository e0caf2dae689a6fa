import { canonicalJson } from "@/lib/catalog/hashing";

/** The top-level fields two argument sets disagree on (added, removed or changed), sorted. */
export function editedFieldsOf(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter(
      (key) =>
        Object.hasOwn(before, key) !== Object.hasOwn(after, key) ||
        canonicalJson(before[key]) !== canonicalJson(after[key]),
    )
    .sort();
}

/** An approver changed a call's arguments before approving it: what was asked, and which fields differ. */
export type ArgumentEditInfo = { requestedArguments: Record<string, unknown>; editedFields: string[] };

export function argumentEditOf(
  requested: Record<string, unknown> | null,
  ran: Record<string, unknown>,
): ArgumentEditInfo | null {
  return requested ? { requestedArguments: requested, editedFields: editedFieldsOf(requested, ran) } : null;
}

/** The meta key under which an edited call's result tells the caller what changed. */
export const EDITED_ARGUMENTS_META = "switchboard/editedArguments";

/**
 * The result a caller receives for a call an approver edited: the tool's own result, then a text
 * item a model reads (it must not believe its own arguments ran) and the same as structured `_meta`.
 * Added when the call is read, never stored: the stored result stays the tool's.
 */
export function withEditNote(
  result: Record<string, unknown>,
  edit: ArgumentEditInfo,
  ran: Record<string, unknown>,
): Record<string, unknown> {
  const fields = edit.editedFields;
  const shown = (value: unknown) => (value === undefined ? "(not set)" : clip(JSON.stringify(value)));
  const lines = fields.map(
    (field) =>
      `- ${field}: requested ${shown(edit.requestedArguments[field])}, ran with ${shown(ran[field])}`,
  );
  const text =
    fields.length > 0
      ? `Note from Switchboard: an approver changed the arguments of this call before approving it; the result above is of the edited call. Changed fields:\n${lines.join("\n")}`
      : "Note from Switchboard: an approver changed the arguments of this call before approving it; the result above is of the edited call.";
  const content = Array.isArray(result.content) ? result.content : [];
  const meta = (result._meta && typeof result._meta === "object" ? result._meta : {}) as Record<
    string,
    unknown
  >;
  return {
    ...result,
    content: [...content, { type: "text", text }],
    _meta: {
      ...meta,
      [EDITED_ARGUMENTS_META]: { fields, requested: edit.requestedArguments, approved: ran },
    },
  };
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);
