// An SVG bar chart (server-rendered, no chart library): the bars scaled to the largest, a dashed line at
// the top labelled with that value, every `labelEvery`-th axis label counted from the newest bar, and a
// tooltip on each bar. The caller adds the screen-reader table of the same numbers.
const WIDTH = 640;
const HEIGHT = 180;
const PAD = { top: 16, right: 8, bottom: 24, left: 8 };

export interface Bar {
  key: string;
  value: number;
  tooltip: string;
  axisLabel: string;
}

export function BarChart({
  label,
  bars,
  formatMax,
  minBarWidth,
  labelEvery,
  radius,
  testId,
  barTestId,
}: {
  /** The accessible name of the whole chart. */
  label: string;
  bars: Bar[];
  formatMax: (max: number) => string;
  minBarWidth: number;
  labelEvery: number;
  radius: number;
  testId?: string;
  barTestId?: string;
}) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(minBarWidth, slot * 0.6);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-44 w-full" role="img" aria-label={label} data-testid={testId}>
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top} y2={PAD.top} strokeDasharray="4 4" className="stroke-slate-200" />
      <text x={PAD.left} y={PAD.top - 2} className="fill-slate-500 text-[10px]">
        {formatMax(max)}
      </text>
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotHeight} y2={PAD.top + plotHeight} className="stroke-slate-200" />
      {bars.map((bar, index) => {
        const height = bar.value > 0 ? Math.max(2, (bar.value / max) * plotHeight) : 0;
        const x = PAD.left + index * slot + (slot - barWidth) / 2;
        return (
          <g key={bar.key}>
            {height > 0 ? (
              <rect
                x={x}
                y={PAD.top + plotHeight - height}
                width={barWidth}
                height={height}
                rx={radius}
                className="fill-indigo-500"
                data-testid={barTestId}
              >
                <title>{bar.tooltip}</title>
              </rect>
            ) : null}
            {(bars.length - 1 - index) % labelEvery === 0 ? (
              <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-500 text-[10px]">
                {bar.axisLabel}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
