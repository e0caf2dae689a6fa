"use client";

import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/lib/client/fetch-json";
import { type ClientFormat, clientFormats, formatLabels } from "@/lib/servers/import-export/client-formats";
import type { ClientExport } from "@/lib/servers/types";
import { serverKeys } from "./server-queries";

const exportQuery = (format: ClientFormat) => ({
  queryKey: [...serverKeys.all, "export", format] as const,
  queryFn: () =>
    fetchJson<{ export: ClientExport }>(`/api/v1/servers/export?format=${format}`).then((r) => r.export),
});

/**
 * One button per client: shows the configuration that points that client at the gateway (with a
 * key placeholder, never a key), to copy or download.
 */
export function ExportMenu() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [format, setFormat] = useState<ClientFormat | null>(null);

  return (
    <>
      <fieldset className="flex flex-wrap items-center gap-1" aria-label="Export a client configuration">
        <span className="mr-1 text-xs font-medium text-slate-500 max-md:w-full">
          Connect a client through the gateway:
        </span>
        {clientFormats.map((f) => (
          <Button
            key={f}
            variant="ghost"
            className="border border-slate-200"
            onClick={() => {
              setFormat(f);
              dialog.current?.showModal();
            }}
          >
            {formatLabels[f]}
          </Button>
        ))}
      </fieldset>
      <dialog
        ref={dialog}
        aria-labelledby="export-title"
        className="m-auto w-full max-w-2xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
        onClose={() => setFormat(null)}
      >
        <div className="space-y-4 p-6">
          <h2 id="export-title" className="text-lg font-semibold text-slate-900">
            {format ? `Connect ${formatLabels[format]} to Switchboard` : "Export"}
          </h2>
          {format ? <ExportBody format={format} /> : null}
          <div className="flex justify-end">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              Close
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}

function ExportBody({ format }: { format: ClientFormat }) {
  const { data, error, isPending } = useQuery(exportQuery(format));
  if (isPending) return <p className="text-sm text-slate-500">Preparing…</p>;
  if (error) return <Alert title="Could not export">{error.message}</Alert>;
  return (
    <>
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
        {data.instructions.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <JsonBlock title={data.fileName} value={data.config} />
      {data.permissions ? (
        <JsonBlock title=".claude/settings.json" value={{ permissions: data.permissions }} />
      ) : null}
    </>
  );
}

function JsonBlock({ title, value }: { title: string; value: unknown }) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const [copied, setCopied] = useState(false);
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: title.split("/").pop() });
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-label={title}>
      <div className="mb-1 flex items-center justify-between">
        <h3 className="font-mono text-xs font-medium text-slate-700">{title}</h3>
        <div className="flex gap-1">
          <Button
            variant="ghost"
            onClick={async () => {
              await navigator.clipboard.writeText(text);
              setCopied(true);
            }}
          >
            {copied ? "Copied" : "Copy"}
          </Button>
          <Button variant="ghost" onClick={download}>
            Download
          </Button>
        </div>
      </div>
      <pre className="max-h-72 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">{text}</pre>
    </section>
  );
}
