import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type ChartSeries, chartSummary, uplotData } from '../format/history-series.ts';

/** Line colours, told apart in light and dark themes; a line's label is always in the legend too. */
const COLOURS = ['#1f5fbf', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#be185d'];

/**
 * Tracked values over time as steps (a value holds until the next change). `invert` puts the
 * lowest value on top, as a rank chart wants (first place highest). The canvas is described in
 * words for screen readers; the page's table holds the same data.
 */
export function HistoryChart({
  title,
  series,
  invert = false,
  log = false,
  clamp,
  format = String,
  testId,
}: {
  title: string;
  series: ChartSeries;
  invert?: boolean;
  /** A logarithmic scale: ranks of 3 and of 30,000 in one chart. */
  log?: boolean;
  /** The values' bounds (a rating's 0 to 5): the scale pads around the data but never past them. */
  clamp?: [number, number];
  format?: (value: number) => string;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || series.x.length === 0) return;
    const width = () => Math.max(260, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 220,
        legend: { show: true, live: true },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: {
          x: { time: true },
          y: {
            dir: invert ? -1 : 1,
            ...(log ? { distr: 3 as const, log: 10 as const } : {}),
            ...(clamp ? { range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => padded(min, max, clamp) } : {}),
          },
        },
        axes: [
          { stroke: 'currentColor', grid: { stroke: 'rgba(128,128,128,0.15)' } },
          {
            stroke: 'currentColor',
            size: 84,
            grid: { stroke: 'rgba(128,128,128,0.15)' },
            values: (_u, ticks) => ticks.map((tick) => tickLabel(tick, log, format)),
          },
        ],
        series: [
          {},
          ...series.lines.map((line, index) => ({
            label: line.label,
            stroke: COLOURS[index % COLOURS.length] as string,
            width: 2,
            paths: uPlot.paths.stepped!({ align: 1 }),
            points: { show: false },
            value: (_u: uPlot, value: number | null) => (value === null || value === undefined ? '–' : format(value)),
          })),
        ],
      },
      uplotData(series),
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, invert, log, clamp, format]);
  const summary = chartSummary(title, series, format);
  return (
    <figure class="history-figure" data-testid={testId}>
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      {series.lines.length === 0 ? <p class="muted">No values in this window.</p> : <div ref={box} class="chart" role="img" aria-label={summary} />}
    </figure>
  );
}

/** An axis label; on a log scale only the powers of ten are labelled (the ticks between them are lines only). */
function tickLabel(tick: number | null, log: boolean, format: (value: number) => string): string {
  if (tick === null || tick === undefined) return '';
  if (log && Math.abs(Math.log10(tick) - Math.round(Math.log10(tick))) > 1e-9) return '';
  return format(tick);
}

/** The data's range with a tenth of room around it (half a unit for a flat line), inside the bounds. */
function padded(min: number, max: number, [low, high]: [number, number]): uPlot.Range.MinMax {
  const pad = max > min ? (max - min) / 10 : 0.5;
  return [Math.max(low, min - pad), Math.min(high, max + pad)];
}
