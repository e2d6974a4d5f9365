// A meter's usage per hour or day as an SVG bar chart (server-rendered, no chart library), fed by the
// usage summary (lib/meters/usage-summary.ts, the per-hour rollup). Screen readers get the same numbers
// as a table; each bar has a tooltip.
import type { UsageSummaryBucket } from "@/lib/meters/usage-summary";

const WIDTH = 640;
const HEIGHT = 180;
const PAD = { top: 16, right: 8, bottom: 24, left: 8 };

export interface UsageChartProps {
  interval: "hour" | "day";
  data: UsageSummaryBucket[];
  /** Formats an amount in base units as money (the meter's currency and base units). */
  format: (amountBase: number) => string;
}

function bucketLabel(start: string, interval: "hour" | "day") {
  const at = new Date(start);
  return interval === "hour"
    ? at.toLocaleString("en-US", { timeZone: "UTC", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false }) +
        " UTC"
    : at.toLocaleDateString("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: "numeric" });
}

function axisLabel(start: string, interval: "hour" | "day") {
  const at = new Date(start);
  return interval === "hour"
    ? `${String(at.getUTCHours()).padStart(2, "0")}:00`
    : at.toLocaleDateString("en-US", { timeZone: "UTC", month: "short", day: "numeric" });
}

export function UsageChart({ interval, data, format }: UsageChartProps) {
  const max = Math.max(1, ...data.map((bucket) => bucket.amountBase));
  const total = data.reduce((sum, bucket) => sum + bucket.amountBase, 0);
  const quantity = data.reduce((sum, bucket) => sum + bucket.quantity, 0);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, data.length);
  const barWidth = Math.max(2, slot * 0.6);
  const every = Math.max(1, Math.ceil(data.length / 8)); // at most about 8 axis labels
  const span = interval === "hour" ? `last ${data.length} hours` : `last ${data.length} days`;
  const label = `Usage per ${interval}, ${span} (UTC): ${format(total)} for ${quantity.toLocaleString("en-US")} units in total.`;
  return (
    <figure className="flex flex-col gap-2" data-testid="usage-chart" data-interval={interval} data-buckets={data.length}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-44 w-full" role="img" aria-label={label}>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top} y2={PAD.top} strokeDasharray="4 4" className="stroke-slate-200" />
        <text x={PAD.left} y={PAD.top - 2} className="fill-slate-500 text-[10px]">
          {format(max)}
        </text>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotHeight} y2={PAD.top + plotHeight} className="stroke-slate-200" />
        {data.map((bucket, index) => {
          const height = bucket.amountBase > 0 ? Math.max(2, (bucket.amountBase / max) * plotHeight) : 0;
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={bucket.start}>
              {height > 0 ? (
                <rect
                  x={x}
                  y={PAD.top + plotHeight - height}
                  width={barWidth}
                  height={height}
                  rx={1.5}
                  className="fill-indigo-500"
                  data-testid="usage-bar"
                >
                  <title>{`${bucketLabel(bucket.start, interval)}: ${format(bucket.amountBase)} (${bucket.quantity.toLocaleString("en-US")} units)`}</title>
                </rect>
              ) : null}
              {(data.length - 1 - index) % every === 0 ? (
                <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-500 text-[10px]">
                  {axisLabel(bucket.start, interval)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="text-xs text-slate-600" data-testid="usage-chart-total">
        {`${format(total)} metered in the ${span} (${quantity.toLocaleString("en-US")} units).`}
      </figcaption>
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{interval === "hour" ? "Hour" : "Day"}</th>
              <th scope="col">Amount</th>
              <th scope="col">Units</th>
            </tr>
          </thead>
          <tbody>
            {data.map((bucket) => (
              <tr key={bucket.start}>
                <th scope="row">{bucketLabel(bucket.start, interval)}</th>
                <td>{format(bucket.amountBase)}</td>
                <td>{bucket.quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
