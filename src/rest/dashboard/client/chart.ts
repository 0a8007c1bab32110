/// <reference lib="dom" />
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from './html.ts';

export type ChartSeries = { label: string; values: (number | null)[]; color: string; dash?: number[] };

/**
 * A line chart (uPlot: small, fast, canvas) over buckets labelled on the x axis. The chart is an image
 * to assistive technologies, described by its label; the figures themselves are in the table beside it.
 */
export const Chart = ({ label, labels, series, format }: { label: string; labels: string[]; series: ChartSeries[]; format: (value: number) => string }) => {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const data: uPlot.AlignedData = [labels.map((_, index) => index), ...series.map((line) => line.values)];
    const options: uPlot.Options = {
      width: Math.max(320, element.clientWidth),
      height: 280,
      series: [
        { label: 'Période', value: (_plot, index) => (index === null ? '' : (labels[index] ?? '')) },
        ...series.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: 2,
          ...(line.dash && { dash: line.dash }),
          value: (_plot: uPlot, value: number | null) => (value === null ? '—' : format(value)),
        })),
      ],
      axes: [
        { values: (_plot, ticks) => ticks.map((tick) => labels[tick] ?? ''), stroke: '#1a1a1a' },
        { values: (_plot, ticks) => ticks.map((tick) => format(tick)), size: 90, stroke: '#1a1a1a' },
      ],
      scales: { x: { time: false } },
    };
    plot.current?.destroy();
    plot.current = new uPlot(options, data, element);
    return () => {
      plot.current?.destroy();
      plot.current = null;
    };
  }, [labels.join(), JSON.stringify(series)]);
  return html`<figure class="chart">
    <div ref=${container} role="img" aria-label=${label}></div>
    <figcaption>${label}</figcaption>
  </figure>`;
};
