import { Time } from "@/components/ui/time";
import { formatDuration } from "../call-format";
import type { StepTone, TimelineStep } from "./timeline-steps";

const dots: Record<StepTone, string> = {
  neutral: "bg-slate-400",
  wait: "bg-amber-500",
  ok: "bg-emerald-500",
  error: "bg-red-500",
  muted: "bg-slate-300",
};

/** The steps of one call, oldest first, each with its time and how long after the one before. */
export function CallTimeline({ steps, totalMs }: { steps: TimelineStep[]; totalMs: number | null }) {
  if (steps.length === 0) {
    return <p className="text-sm text-slate-500">No events were recorded for this call.</p>;
  }
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <ol aria-label="Timeline" className="relative">
        {steps.map((step, index) => (
          <li
            key={step.key}
            data-testid="timeline-step"
            data-type={step.type}
            className="relative flex gap-3 pb-4 last:pb-0"
          >
            {index < steps.length - 1 ? (
              <span aria-hidden className="absolute left-[5px] top-4 h-full w-px bg-slate-200" />
            ) : null}
            <span
              aria-hidden
              className={`relative mt-1.5 h-[11px] w-[11px] shrink-0 rounded-full ring-2 ring-white ${dots[step.tone]} ${step.isOngoing ? "animate-pulse" : ""}`}
            />
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <p
                  className={`text-sm font-medium ${step.tone === "error" ? "text-red-800" : "text-slate-900"}`}
                >
                  {step.title}
                </p>
                <p className="text-xs tabular-nums text-slate-500">
                  {step.isOngoing ? "now" : <Time iso={step.at} />}
                  {step.sincePreviousMs !== null ? (
                    <span className="ml-2 text-slate-600" suppressHydrationWarning>
                      +{formatDuration(Math.max(0, step.sincePreviousMs))}
                    </span>
                  ) : null}
                </p>
              </div>
              {step.detail ? (
                <p
                  className="mt-0.5 whitespace-pre-wrap wrap-anywhere text-sm text-slate-600"
                  suppressHydrationWarning
                >
                  {step.detail}
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ol>
      {totalMs !== null ? (
        <p className="mt-3 border-t border-slate-100 pt-2 text-xs text-slate-500">
          From request to outcome: {formatDuration(totalMs)}
        </p>
      ) : null}
    </div>
  );
}
