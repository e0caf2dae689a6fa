// Our own SVG rather than a chart library: one line and a few bands, server-renderable, at no bundle cost.
import { formatDateTime, formatLatency } from "@/components/ui/format";

export type HealthPoint = { ok: boolean; latencyMs: number | null; checkedAt: string };

const WIDTH = 640;
const HEIGHT = 140;
const PAD = { top: 10, right: 10, bottom: 10, left: 48 };

/** Latency of health checks, oldest on the left; failed checks are red bands. Plain SVG. */
export function LatencyChart({ checks }: { checks: HealthPoint[] }) {
  const latencies = checks.flatMap((c) => (c.ok && c.latencyMs !== null ? [c.latencyMs] : []));
  const max = niceCeiling(Math.max(1, ...latencies));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const step = checks.length > 1 ? plotWidth / (checks.length - 1) : 0;
  const x = (index: number) => PAD.left + (checks.length > 1 ? index * step : plotWidth / 2);
  const y = (ms: number) => PAD.top + plotHeight - (Math.min(ms, max) / max) * plotHeight;
  const band = Math.max(step, 4);

  // Consecutive successful checks form one line; a failure breaks it.
  const segments: string[] = [];
  let current = "";
  checks.forEach((check, index) => {
    if (check.ok && check.latencyMs !== null) {
      current += `${current ? "L" : "M"}${x(index).toFixed(1)},${y(check.latencyMs).toFixed(1)}`;
    } else if (current) {
      segments.push(current);
      current = "";
    }
  });
  if (current) segments.push(current);

  const failures = checks.length - latencies.length;
  const lastChecks =
    checks.length === 1 ? "the last health check" : `the last ${checks.length} health checks`;
  const summary =
    latencies.length > 0
      ? `Latency of ${lastChecks}: ${formatLatency(Math.min(...latencies))} to ${formatLatency(Math.max(...latencies))}, ${failures} failed.`
      : checks.length === 1
        ? "The last health check failed."
        : `None of the last ${checks.length} health checks succeeded.`;
  // No successful check, no latency: an axis of made-up milliseconds would read as measurements.
  const hasLatency = latencies.length > 0;
  // A half-way line on a 1 ms scale would round to a second "1 ms" label.
  const gridLines = !hasLatency ? [] : max >= 2 ? [0, 0.5, 1] : [0, 1];

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={summary}
      className="h-auto w-full rounded-lg border border-slate-200 bg-white"
    >
      {gridLines.map((fraction) => {
        const value = max * fraction;
        return (
          <g key={fraction}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(value)}
              y2={y(value)}
              className="stroke-slate-100"
            />
            <text x={PAD.left - 6} y={y(value) + 3} textAnchor="end" className="fill-slate-400 text-[10px]">
              {formatLatency(value)}
            </text>
          </g>
        );
      })}
      {checks.map((check, index) =>
        check.ok ? null : (
          <rect
            key={check.checkedAt}
            x={x(index) - band / 2}
            y={PAD.top}
            width={band}
            height={plotHeight}
            className="fill-red-100"
          >
            <title>{`${formatDateTime(check.checkedAt)} · failed`}</title>
          </rect>
        ),
      )}
      {segments.map((d) => (
        <path key={d} d={d} fill="none" strokeWidth={1.5} className="stroke-indigo-500" />
      ))}
      {checks.map((check, index) =>
        check.ok && check.latencyMs !== null ? (
          <circle
            key={check.checkedAt}
            cx={x(index)}
            cy={y(check.latencyMs)}
            r={2.5}
            className="fill-indigo-600"
          >
            <title>{`${formatDateTime(check.checkedAt)} · ${formatLatency(check.latencyMs)}`}</title>
          </circle>
        ) : null,
      )}
      {/* Drawn last, over the red bands of the failures. */}
      {hasLatency ? null : (
        <text
          x={PAD.left + plotWidth / 2}
          y={PAD.top + plotHeight / 2 + 4}
          textAnchor="middle"
          className="fill-red-800 text-[13px] font-medium"
        >
          No successful checks
        </text>
      )}
    </svg>
  );
}

/** 1, 2 or 5 times a power of ten, at or above the value: round axis labels. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const nice = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return nice * power;
}
