import { memo } from "react";
import { isRecord } from "@/components/ui/format";
import { ValueTable } from "./value-table";

/**
 * A JSON value for people: the key/value table first, the raw JSON one click away for those who
 * want to copy it. Used for arguments, structured results and event details.
 */
// Memoized: pages that tick every second (countdowns) re-render around large argument tables.
export const JsonView = memo(function JsonView({
  value,
  label,
  emptyText = "Nothing.",
}: {
  value: unknown;
  label: string;
  emptyText?: string;
}) {
  const isEmpty = (isRecord(value) && Object.keys(value).length === 0) || value === undefined;
  const isTable = isRecord(value) || Array.isArray(value);
  return (
    <div>
      {isEmpty ? (
        <p className="text-sm text-slate-500">{emptyText}</p>
      ) : isTable ? (
        <ValueTable value={value as Record<string, unknown> | unknown[]} label={label} />
      ) : (
        <code className="font-mono text-sm text-slate-800">{JSON.stringify(value)}</code>
      )}
      {isEmpty ? null : (
        <details className="mt-2 text-xs">
          <summary className="cursor-pointer text-slate-500 hover:text-slate-800">Raw JSON</summary>
          <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-md bg-slate-50 p-3 font-mono text-slate-700 ring-1 ring-slate-200">
            {JSON.stringify(value, null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
});
