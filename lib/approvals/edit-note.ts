/** The audit log's words for an approval with edited arguments: each changed field, before → after. */
export function describeEdit(
  tool: string,
  requested: Record<string, unknown>,
  approved: Record<string, unknown>,
  fields: string[],
): string {
  const shown = (value: unknown) => (value === undefined ? "(not set)" : clip(JSON.stringify(value)));
  const changes = fields.map((f) => `${f}: ${shown(requested[f])} → ${shown(approved[f])}`);
  return `${tool} approved with edited arguments — ${changes.join("; ")}`;
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);
