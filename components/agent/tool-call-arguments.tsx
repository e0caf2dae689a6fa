/** A tool call's arguments (the model's JSON text) as a small key/value list; raw text only when it is not an object. */
export function ToolCallArguments({ raw }: { raw: string }) {
  const parsed = parseArguments(raw);
  if (parsed === null)
    return (
      <code className="block whitespace-pre-wrap wrap-anywhere font-mono text-xs text-slate-800">{raw}</code>
    );
  if (parsed.length === 0) return <p className="text-xs text-slate-600">No arguments.</p>;
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-xs">
      {parsed.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="font-mono text-slate-600">{key}</dt>
          <dd className="whitespace-pre-wrap wrap-anywhere text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The entries of a JSON object, each value as text (strings as they are); null when it is no object. */
function parseArguments(raw: string): Array<[string, string]> | null {
  let value: unknown;
  try {
    value = JSON.parse(raw === "" ? "{}" : raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return Object.entries(value).map(([key, entry]) => [
    key,
    typeof entry === "string" ? entry : JSON.stringify(entry),
  ]);
}
