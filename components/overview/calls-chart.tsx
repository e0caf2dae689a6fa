// Our own SVG rather than a chart library: tens of bars, a three-label time axis and tooltips do
// not justify a chart library in the overview page's bundle.
import { pluralize } from "@/components/ui/format";
import type { MinuteBucket } from "./calls-per-minute";

const WIDTH = 300;
const HEIGHT = 64;
const GAP = 2;

const minuteLabel = (start: number) =>
  new Date(start).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

/** Calls per minute as tiny bars, oldest on the left; the failed part of each bar in red. */
export function CallsChart({ buckets }: { buckets: MinuteBucket[] }) {
  const max = Math.max(1, ...buckets.map((b) => b.total));
  const barWidth = WIDTH / buckets.length - GAP;
  const total = buckets.reduce((sum, b) => sum + b.total, 0);
  const peak = Math.max(0, ...buckets.map((b) => b.total));
  const height = (count: number) => (count / max) * (HEIGHT - 4);
  const first = buckets[0];
  const middle = buckets[Math.floor(buckets.length / 2)];
  return (
    <div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${pluralize(total, "call")} in the last ${buckets.length} minutes; at most ${peak} in one minute.`}
        className="h-16 w-full"
        preserveAspectRatio="none"
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-200" />
        {buckets.map((bucket, index) => {
          const x = index * (barWidth + GAP);
          const ok = bucket.total - bucket.failed;
          return (
            <g key={bucket.start}>
              <title>{`${minuteLabel(bucket.start)} · ${bucket.total} ${bucket.total === 1 ? "call" : "calls"}${bucket.failed ? `, ${bucket.failed} failed or refused` : ""}`}</title>
              {/* An invisible full-height bar so every minute has a hover target. */}
              <rect x={x} y={0} width={barWidth} height={HEIGHT} className="fill-transparent" />
              <rect
                x={x}
                y={HEIGHT - height(ok)}
                width={barWidth}
                height={height(ok)}
                className="fill-indigo-500"
              />
              <rect
                x={x}
                y={HEIGHT - height(bucket.total)}
                width={barWidth}
                height={height(bucket.failed)}
                className="fill-red-400"
              />
            </g>
          );
        })}
      </svg>
      {/* The axis in HTML, under the stretched SVG, so its text is not stretched with it. The last
          bucket is the current minute: "now" says so better than a clock time. */}
      <div className="mt-1 grid grid-cols-3 text-[10px] text-slate-500" data-testid="calls-chart-axis">
        <span>{first ? minuteLabel(first.start) : ""}</span>
        <span className="text-center">{middle ? minuteLabel(middle.start) : ""}</span>
        <span className="text-right">now</span>
      </div>
    </div>
  );
}
