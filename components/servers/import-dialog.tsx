"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, useTransition } from "react";
import { importServersAction } from "@/app/(dashboard)/servers/import-actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { formatLabels, type ImportFormat, importFormats } from "@/lib/servers/import-export/client-formats";
import type { ImportReport } from "@/lib/servers/types";
import { ImportReportTable } from "./import-report";
import { serverKeys } from "./server-queries";

/**
 * Import servers from a client's configuration (pasted or uploaded): Preview runs a dry run,
 * Import applies it. Credentials in the file are moved into secrets by the server; the report
 * names them, never shows them.
 */
export function ImportDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  const [format, setFormat] = useState<ImportFormat>("auto");
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const queryClient = useQueryClient();

  const edit = (next: string) => {
    setText(next);
    setReport(null);
    setError(null);
  };

  const run = (dryRun: boolean) =>
    startTransition(async () => {
      setError(null);
      const result = await importServersAction({ config: text, format, dryRun });
      if (!result.ok) {
        setReport(null);
        setError(result.error.message);
        return;
      }
      setReport(result.data);
      if (dryRun) return;
      // The pasted text may hold tokens; once they are stored as secrets, keep no copy in the page.
      setText("");
      await queryClient.invalidateQueries({ queryKey: serverKeys.all });
    });

  return (
    <>
      <Button variant="secondary" onClick={() => dialog.current?.showModal()}>
        Import
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby="import-servers-title"
        className="m-auto w-full max-w-3xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="space-y-4 p-6">
          <div>
            <h2 id="import-servers-title" className="text-lg font-semibold text-slate-900">
              Import servers
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Paste or upload an MCP configuration from Claude Desktop, Claude Code (.mcp.json), Cursor
              (mcp.json) or VS Code. Tokens, keys and passwords are stored as secrets, not as text. Servers
              that already exist are updated.
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-4">
            <label className="text-sm font-medium text-slate-800">
              File
              <input
                type="file"
                accept=".json,.jsonc,application/json"
                className="mt-1 block text-sm text-slate-600 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-50"
                onChange={async (event) => {
                  const file = event.target.files?.[0];
                  if (file) edit(await file.text());
                }}
              />
            </label>
            <label className="text-sm font-medium text-slate-800">
              Format
              <select
                value={format}
                onChange={(event) => {
                  setFormat(event.target.value as ImportFormat);
                  setReport(null);
                }}
                className={`${inputClass} mt-1`}
              >
                {importFormats.map((f) => (
                  <option key={f} value={f}>
                    {f === "auto" ? "Detect automatically" : formatLabels[f]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label className="block text-sm font-medium text-slate-800">
            Configuration
            <textarea
              value={text}
              onChange={(event) => edit(event.target.value)}
              rows={10}
              spellCheck={false}
              placeholder='{"mcpServers": {"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]}}}'
              className={`${inputClass} mt-1 font-mono text-xs`}
            />
          </label>
          {error ? <Alert title="Nothing was imported">{error}</Alert> : null}
          {report ? <ImportSummary report={report} /> : null}
          {report && report.entries.length > 0 ? <ImportReportTable report={report} /> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => dialog.current?.close()} disabled={isPending}>
              Close
            </Button>
            <Button variant="secondary" onClick={() => run(true)} disabled={isPending || !text.trim()}>
              {isPending ? "Working…" : "Preview"}
            </Button>
            <Button onClick={() => run(false)} disabled={isPending || !text.trim()}>
              Import servers
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}

function ImportSummary({ report }: { report: ImportReport }) {
  const { create, update, unchanged, error } = report.summary;
  const counts = report.dryRun
    ? `${create} to create, ${update} to update, ${unchanged} unchanged, ${error} with errors. Nothing has been saved yet.`
    : `${create} created, ${update} updated, ${unchanged} unchanged, ${error} with errors.`;
  return (
    <p role="status" className="text-sm text-slate-700">
      {report.dryRun ? "Preview" : "Imported"} ({formatLabels[report.format]}): {counts}
    </p>
  );
}
