import { Badge } from "@/components/ui/badge";
import { ClampedText } from "./clamped-text";
import { toValueRows, type ValueRow } from "./value-rows";

/** A JSON object or list as a readable two-column table; nested values are indented under their key. */
export function ValueTable({ value, label }: { value: Record<string, unknown> | unknown[]; label: string }) {
  const { rows, isCut } = toValueRows(value);
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-100 text-sm">
        <caption className="sr-only">{label}</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.path} data-testid="value-row">
              <th
                scope="row"
                className="w-1/4 whitespace-nowrap px-4 py-2 text-left align-top font-normal"
                style={{ paddingLeft: `${1 + row.depth * 1.25}rem` }}
              >
                {row.depth > 0 ? (
                  <span aria-hidden className="mr-1 text-slate-300">
                    └
                  </span>
                ) : null}
                <code className="font-mono text-xs font-medium text-slate-800">{row.name}</code>
              </th>
              <td className="px-4 py-2 align-top text-slate-800">
                <ValueCell row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {isCut ? (
        <p className="border-t border-slate-100 px-4 py-2 text-xs text-slate-500">
          Too large to list in full; the raw JSON below has everything.
        </p>
      ) : null}
    </div>
  );
}

function ValueCell({ row }: { row: ValueRow }) {
  switch (row.kind) {
    case "string":
      return row.text === "" ? (
        <span className="text-xs italic text-slate-400">empty text</span>
      ) : (
        <ClampedText text={row.text} />
      );
    case "redacted":
      return (
        <Badge tone="slate" title="A secret value: Switchboard removed it before storing the call">
          redacted
        </Badge>
      );
    case "number":
      return <code className="font-mono text-xs text-indigo-700">{row.text}</code>;
    case "boolean":
      return <code className="font-mono text-xs text-amber-800">{row.text}</code>;
    case "null":
      return <code className="font-mono text-xs italic text-slate-400">null</code>;
    case "object":
    case "array":
      return <span className="text-xs text-slate-500">{row.text}</span>;
    default:
      return <span className="text-xs text-slate-500">{row.text}</span>;
  }
}
