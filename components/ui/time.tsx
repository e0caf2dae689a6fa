import { formatDateTime } from "./format";

/**
 * A timestamp in the viewer's time zone. The server renders it in its own zone first, so the text
 * may differ at hydration: that one difference is expected and silenced.
 */
export function Time({ iso, className }: { iso: string | null | undefined; className?: string }) {
  if (!iso) return <span className={className}>—</span>;
  return (
    <time dateTime={iso} title={iso} className={className} suppressHydrationWarning>
      {formatDateTime(iso)}
    </time>
  );
}
