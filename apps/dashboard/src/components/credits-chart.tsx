import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Credits per day as bars (uPlot draws on a canvas; its sizes are set from script, which the CSP allows). */
export function CreditsChart({ days, credits }: { days: number[]; credits: number[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 240,
        legend: { show: false },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] } },
        axes: [
          { stroke: 'currentColor', grid: { show: false } },
          { stroke: 'currentColor', label: 'credits', size: 60 },
        ],
        series: [
          {},
          { label: 'Credits', fill: 'rgba(31, 95, 191, 0.6)', stroke: '#1f5fbf', paths: uPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } },
        ],
      },
      [days, credits],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 240 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, credits]);
  const total = credits.reduce((sum, value) => sum + value, 0);
  return (
    <figure class="chart-figure">
      <div ref={box} class="chart" role="img" aria-label={`Credits charged per day this month: ${total} in total`} />
      <figcaption class="muted">Credits charged per day (UTC) this month: {total.toLocaleString()} in total.</figcaption>
    </figure>
  );
}
