// Net volume per day as an SVG bar chart (server-rendered, no chart library). Screen readers get the
// same numbers as a table; each bar has a tooltip.
import { formatDate, formatMoney } from "@/lib/dashboard/format";
import type { RevenueSeries } from "@/lib/dashboard/home";
import { BarChart } from "./BarChart";

export function RevenueChart({ series }: { series: RevenueSeries }) {
  const label = `Net volume in ${series.currency}, last ${series.days.length} days: ${formatMoney(series.total, series.currency)} in total.`;
  return (
    <figure className="flex flex-col gap-2">
      <BarChart
        label={label}
        bars={series.days.map((day) => ({
          key: day.day,
          value: day.amount,
          tooltip: `${formatDate(day.day)}: ${formatMoney(day.amount, series.currency)}`,
          axisLabel: formatDate(day.day).replace(/, \d{4}$/, ""),
        }))}
        formatMax={(max) => formatMoney(max, series.currency)}
        minBarWidth={4}
        labelEvery={2}
        radius={2}
        testId="revenue-chart"
      />
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <tbody>
            {series.days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{formatDate(day.day)}</th>
                <td>{formatMoney(day.amount, series.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
