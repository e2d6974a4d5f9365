// A meter's usage per hour or day as an SVG bar chart (server-rendered, no chart library), fed by the
// usage summary (lib/meters/usage-summary.ts, the per-hour rollup). Screen readers get the same numbers
// as a table; each bar has a tooltip.
import type { UsageSummaryBucket } from "@/lib/meters/usage-summary";
import { BarChart } from "./BarChart";

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
  const total = data.reduce((sum, bucket) => sum + bucket.amountBase, 0);
  const quantity = data.reduce((sum, bucket) => sum + bucket.quantity, 0);
  const span = interval === "hour" ? `last ${data.length} hours` : `last ${data.length} days`;
  const label = `Usage per ${interval}, ${span} (UTC): ${format(total)} for ${quantity.toLocaleString("en-US")} units in total.`;
  return (
    <figure className="flex flex-col gap-2" data-testid="usage-chart" data-interval={interval} data-buckets={data.length}>
      <BarChart
        label={label}
        bars={data.map((bucket) => ({
          key: bucket.start,
          value: bucket.amountBase,
          tooltip: `${bucketLabel(bucket.start, interval)}: ${format(bucket.amountBase)} (${bucket.quantity.toLocaleString("en-US")} units)`,
          axisLabel: axisLabel(bucket.start, interval),
        }))}
        formatMax={format}
        minBarWidth={2}
        labelEvery={Math.max(1, Math.ceil(data.length / 8))} // at most about 8 axis labels
        radius={1.5}
        barTestId="usage-bar"
      />
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
