// Net volume per day as an SVG bar chart (server-rendered, no chart library). Screen readers get the
// same numbers as a table; each bar has a tooltip.
import { formatDate, formatMoney } from "@/lib/dashboard/format";
import type { RevenueSeries } from "@/lib/dashboard/home";

const WIDTH = 640;
const HEIGHT = 180;
const PAD = { top: 16, right: 8, bottom: 24, left: 8 };

export function RevenueChart({ series }: { series: RevenueSeries }) {
  const max = Math.max(1, ...series.days.map((day) => day.amount));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / series.days.length;
  const barWidth = Math.max(4, slot * 0.6);
  const label = `Net volume in ${series.currency}, last ${series.days.length} days: ${formatMoney(series.total, series.currency)} in total.`;
  return (
    <figure className="flex flex-col gap-2">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-44 w-full" role="img" aria-label={label} data-testid="revenue-chart">
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top} y2={PAD.top} strokeDasharray="4 4" className="stroke-slate-200" />
        <text x={PAD.left} y={PAD.top - 2} className="fill-slate-500 text-[10px]">
          {formatMoney(max, series.currency)}
        </text>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotHeight} y2={PAD.top + plotHeight} className="stroke-slate-200" />
        {series.days.map((day, index) => {
          const height = day.amount > 0 ? Math.max(2, (day.amount / max) * plotHeight) : 0;
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={day.day}>
              <rect x={x} y={PAD.top + plotHeight - height} width={barWidth} height={height} rx={2} className="fill-indigo-500">
                <title>{`${formatDate(day.day)}: ${formatMoney(day.amount, series.currency)}`}</title>
              </rect>
              {(series.days.length - 1 - index) % 2 === 0 ? (
                <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-500 text-[10px]">
                  {formatDate(day.day).replace(/, \d{4}$/, "")}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
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
