import { Badge, type Tone } from "@/components/ui/badge";
import type { ImportAction, ImportReport } from "@/lib/servers/types";

const actionBadges: Record<ImportAction, { tone: Tone; planned: string; done: string }> = {
  create: { tone: "green", planned: "Will create", done: "Created" },
  update: { tone: "blue", planned: "Will update", done: "Updated" },
  unchanged: { tone: "slate", planned: "Unchanged", done: "Unchanged" },
  error: { tone: "red", planned: "Error", done: "Error" },
};

// The note plan-import.ts leaves on an entry registered with OAuth (its first words).
const NEEDS_AUTHORIZATION = "Needs authorization:";

/** What an import did (or, for a preview, would do) per entry; secret names only, never values. */
export function ImportReportTable({ report }: { report: ImportReport }) {
  return (
    <table className="w-full table-fixed text-left text-sm" aria-label="Import report">
      <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
        <tr>
          <th className="w-[28%] py-2 pr-3 font-medium">Server</th>
          <th className="w-[16%] py-2 pr-3 font-medium">Action</th>
          <th className="py-2 font-medium">Secrets and notes</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {report.entries.map((entry) => {
          const badge = actionBadges[entry.action];
          return (
            <tr key={entry.source} data-testid={`import-entry-${entry.source}`} className="align-top">
              <td className="py-2 pr-3">
                <div className="font-mono text-xs text-slate-900">{entry.name ?? "—"}</div>
                {entry.name !== entry.source ? (
                  <div className="truncate text-xs text-slate-500">from “{entry.source}”</div>
                ) : null}
              </td>
              <td className="py-2 pr-3">
                <Badge tone={badge.tone}>{report.dryRun ? badge.planned : badge.done}</Badge>
              </td>
              <td className="space-y-1 py-2 text-xs text-slate-600">
                {entry.error ? <p className="text-red-700">{entry.error.message}</p> : null}
                {entry.secrets.map((secret) => (
                  <p key={secret.name}>
                    {secret.change === "needs-value" ? "Set secret " : "Secret "}
                    <span className="font-mono text-slate-900">{secret.name}</span> ← {secret.from}
                    {secret.change === "needs-value" ? " (no value yet)" : ` (${secret.change})`}
                  </p>
                ))}
                {entry.warnings.map((warning) =>
                  warning.startsWith(NEEDS_AUTHORIZATION) ? (
                    <p key={warning} className="flex flex-wrap items-center gap-1.5 text-slate-700">
                      <Badge tone="amber">Needs authorization</Badge>
                      {capitalize(warning.slice(NEEDS_AUTHORIZATION.length).trim())}
                    </p>
                  ) : (
                    <p key={warning} className="text-amber-800">
                      {warning}
                    </p>
                  ),
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
