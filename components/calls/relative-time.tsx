import { formatDateTime } from "@/components/ui/format";
import { formatAgo } from "./call-format";

/**
 * "2 min ago", with the exact time on hover. The server renders it with its own clock, so the text
 * may differ once the browser takes over: that one difference is expected and silenced.
 */
export function RelativeTime({ iso, now, className }: { iso: string; now: number; className?: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className={className} suppressHydrationWarning>
      {formatAgo(iso, now)}
    </time>
  );
}
