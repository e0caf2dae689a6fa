import type { ReactNode } from "react";

/** The padding of a compact table cell (detail pages' tables of rows). */
export const cellClass = "px-4 py-2.5 align-top";

export type Column = { label: string; className?: string; srOnly?: boolean };

/** The card-framed table every list page uses: header row from `columns`, body rows as children. */
export function DataTable({
  columns,
  children,
  fixed,
  stackOnPhone,
  caption,
}: {
  /** a plain string is a column with just that label */
  columns: Array<Column | string>;
  children: ReactNode;
  /**
   * Column widths from `columns` (fixed layout). Such a table keeps a minimum width and scrolls
   * sideways in a narrower window rather than squeezing badges over their neighbours.
   */
  fixed?: boolean;
  /**
   * Below `md` (a phone) each row becomes a stacked card instead — its first cell across the top,
   * the others flowing after it — for the lists people read on a phone. The column headings stay
   * for screen readers only, so each cell must make sense without its heading.
   */
  stackOnPhone?: boolean;
  /** for screen readers, when the table has no visible heading of its own */
  caption?: string;
}) {
  const width = fixed ? (stackOnPhone ? "md:min-w-[60rem] md:table-fixed" : "min-w-[60rem] table-fixed") : "";
  return (
    // Focusable so that a keyboard user can scroll a table wider than the window (WCAG 2.1.1).
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      aria-label={caption ?? "table"}
      className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-indigo-500"
    >
      <table
        className={`w-full divide-y divide-slate-200 text-sm ${width} ${stackOnPhone ? stackedTable : ""}`}
      >
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            {columns
              .map((entry) => (typeof entry === "string" ? { label: entry } : entry))
              .map((column) => (
                <th key={column.label} scope="col" className={`px-4 py-3 ${column.className ?? ""}`}>
                  {column.srOnly ? <span className="sr-only">{column.label}</span> : column.label}
                </th>
              ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </section>
  );
}

/** The table, its rows and cells as blocks and wrapping rows below `md` (see `stackOnPhone`). */
const stackedTable = [
  "max-md:block max-md:[&>thead]:sr-only max-md:[&>tbody]:block",
  "max-md:[&>tbody>tr]:flex max-md:[&>tbody>tr]:flex-wrap max-md:[&>tbody>tr]:items-center max-md:[&>tbody>tr]:py-2",
  "max-md:[&>tbody>tr>td]:max-w-full max-md:[&>tbody>tr>td]:py-1 max-md:[&>tbody>tr>td:first-child]:w-full",
].join(" ");
