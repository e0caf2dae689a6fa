import Link from "next/link";
import { formatBytes, pluralize } from "@/components/ui/format";
import type { ToolListSizes } from "@/lib/gateway/types";

/**
 * What each principal's client reads from tools/list in each mode, measured from the lists the
 * gateway serves: the number to decide by when a client slows down or a model runs out of context.
 */
export function ToolListSizesCard({ sizes }: { sizes: ToolListSizes }) {
  return (
    <section
      aria-labelledby="tool-list-sizes-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="tool-list-sizes-heading" className="text-sm font-semibold text-slate-900">
        tools/list size by mode
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        The full list suits a few hundred tools: the client sees every one up front. Past that, the list costs
        a model its context before any work starts — use discovery mode, whose list is the same{" "}
        {formatBytes(sizes.discoverBytes)} whatever is granted.
      </p>
      {sizes.principals.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600" data-testid="tool-list-sizes-empty">
          This workspace has no principals: each one&apos;s list is measured here once it exists.
        </p>
      ) : (
        <table className="mt-4 w-full text-sm" data-testid="tool-list-sizes">
          <thead>
            <tr className="text-left text-xs font-medium text-slate-500">
              <th className="py-1 pr-3 font-medium">Principal</th>
              <th className="py-1 pr-3 text-right font-medium">Granted tools</th>
              <th className="py-1 pr-3 text-right font-medium">/mcp</th>
              <th className="py-1 text-right font-medium">/mcp/discover</th>
            </tr>
          </thead>
          <tbody>
            {sizes.principals.map((principal) => (
              <tr key={principal.id} className="border-t border-slate-100">
                <td className="py-1.5 pr-3">
                  <Link href={`/principals/${principal.id}`} className="text-sky-700 hover:underline">
                    {principal.name}
                  </Link>
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums text-slate-700">
                  {pluralize(principal.tools, "tool")}
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums text-slate-700">
                  {formatBytes(principal.fullBytes)}
                </td>
                <td className="py-1.5 text-right tabular-nums text-slate-700">
                  {formatBytes(sizes.discoverBytes)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
