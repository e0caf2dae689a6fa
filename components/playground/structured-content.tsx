import { cellClass, DataTable } from "@/components/ui/data-table";
import { isRecord } from "@/components/ui/format";

/**
 * structuredContent as a table: an object as property/value rows, a list of objects as one row per
 * item. Nested values are shown as JSON text; everything is rendered as text, never as markup.
 */
export function StructuredContent({ value }: { value: unknown }) {
  const rows = Array.isArray(value) ? value : null;
  if (isRecord(value)) {
    return (
      <DataTable columns={["Property", "Value"]} caption="Structured content">
        {Object.entries(value).map(([key, item]) => (
          <tr key={key}>
            <td className={`${cellClass} font-mono text-xs font-medium text-slate-900`}>{key}</td>
            <td className={`${cellClass} text-slate-700`}>
              <Cell value={item} />
            </td>
          </tr>
        ))}
      </DataTable>
    );
  }
  if (rows && rows.length > 0 && rows.every(isRecord)) {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].slice(0, 12);
    return (
      <DataTable columns={columns} caption="Structured content">
        {rows.slice(0, 500).map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of a result have no identity but their order
          <tr key={index}>
            {columns.map((column) => (
              <td key={column} className={`${cellClass} text-slate-700`}>
                <Cell value={row[column]} />
              </td>
            ))}
          </tr>
        ))}
      </DataTable>
    );
  }
  return <pre className={preClass}>{JSON.stringify(value, null, 2)}</pre>;
}

export const preClass =
  "max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800 ring-1 ring-slate-200";

function Cell({ value }: { value: unknown }) {
  if (value === undefined) return <span className="text-slate-400">—</span>;
  if (typeof value === "string") return <span className="whitespace-pre-wrap break-words">{value}</span>;
  if (value === null || typeof value !== "object")
    return <code className="font-mono text-xs">{String(value)}</code>;
  return <code className="whitespace-pre-wrap break-all font-mono text-xs">{JSON.stringify(value)}</code>;
}
