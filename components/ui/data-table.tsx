import type { ReactNode } from "react";

export type Column = { label: string; className?: string; srOnly?: boolean };

/** The card-framed table every list page uses: header row from `columns`, body rows as children. */
export function DataTable({
  columns,
  children,
  fixed,
}: {
  columns: Column[];
  children: ReactNode;
  fixed?: boolean;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className={`w-full divide-y divide-slate-200 text-sm ${fixed ? "table-fixed" : ""}`}>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={`px-4 py-3 ${column.className ?? ""}`}>
                {column.srOnly ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
