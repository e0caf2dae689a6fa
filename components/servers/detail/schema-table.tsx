import { Badge } from "@/components/ui/badge";
import { cellClass, DataTable } from "@/components/ui/data-table";
import { hasProperties, toSchemaRows } from "./schema-rows";

/** A JSON Schema as a readable table of its properties, with the raw JSON one click away. */
export function SchemaTable({ schema, label }: { schema: unknown; label: string }) {
  const rows = toSchemaRows(schema);
  return (
    <div>
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</h3>
      {schema === undefined ? (
        <p className="text-sm text-slate-500">The server sent no schema.</p>
      ) : !hasProperties(schema) ? (
        <p className="text-sm text-slate-500">No parameters.</p>
      ) : (
        <DataTable columns={["Property", "Type", "Required", "Description", "Values"]} caption={label}>
          {rows.map((row) => (
            <tr key={row.path}>
              <td className={cellClass} style={{ paddingLeft: `${1 + row.depth * 1.25}rem` }}>
                {row.depth > 0 ? (
                  <span aria-hidden className="mr-1 text-slate-300">
                    └
                  </span>
                ) : null}
                <code className="font-mono text-xs font-medium text-slate-900">{row.name}</code>
              </td>
              <td className={`${cellClass} font-mono text-xs text-indigo-700`}>{row.type}</td>
              <td className={cellClass}>
                {row.isRequired ? (
                  <Badge tone="amber">required</Badge>
                ) : (
                  <span className="text-xs text-slate-400">optional</span>
                )}
              </td>
              <td className={`${cellClass} max-w-md text-xs text-slate-600`}>
                {row.description ? <p className="whitespace-pre-line">{row.description}</p> : null}
                {row.constraints.length > 0 ? (
                  <p className="mt-0.5 text-slate-400">{row.constraints.join(" · ")}</p>
                ) : null}
              </td>
              <td className={`${cellClass} text-xs`}>
                <div className="flex max-w-xs flex-wrap gap-1">
                  {row.enumValues.map((value) => (
                    <code key={value} className="rounded bg-slate-100 px-1 font-mono text-slate-700">
                      {value}
                    </code>
                  ))}
                </div>
                {row.defaultValue !== null ? (
                  <p className="mt-0.5 text-slate-500">
                    default <code className="font-mono">{row.defaultValue}</code>
                  </p>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {schema !== undefined ? (
        <details className="mt-2 text-xs">
          <summary className="cursor-pointer text-slate-500 hover:text-slate-800">Raw schema</summary>
          <pre className="mt-2 max-h-96 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-slate-700 ring-1 ring-slate-200">
            {JSON.stringify(schema, null, 2)}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
