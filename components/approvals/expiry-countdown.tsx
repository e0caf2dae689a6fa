import { formatTimeLeft } from "@/components/calls/call-format";
import { formatDateTime } from "@/components/ui/format";

// Under this, the countdown turns red: the approver should know it is about to lapse.
const URGENT_MS = 60_000;

/** "expires in 9:41", ticking with `now`; once past, says so (the server closes it on its next sweep). */
export function ExpiryCountdown({ expiresAt, now }: { expiresAt: string; now: number }) {
  const left = formatTimeLeft(expiresAt, now);
  const isUrgent = Date.parse(expiresAt) - now < URGENT_MS;
  return (
    <span
      title={`Expires at ${formatDateTime(expiresAt)}`}
      className={`tabular-nums ${isUrgent ? "font-medium text-red-700" : "text-slate-500"}`}
      suppressHydrationWarning
    >
      {left ? `expires in ${left}` : "expired: it will not run"}
    </span>
  );
}
