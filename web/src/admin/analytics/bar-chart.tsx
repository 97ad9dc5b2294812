import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useId } from 'react';
import { DataTable } from './data-table';
import { useWidth } from './use-width';

export interface BarDatum {
  label: string;
  value: number;
}

const ROW = 28;
const LABEL_WIDTH = 0.4;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Horizontal bars, largest first, each labelled with its name and value (SVG, drawn with
 * visx); named and summarised for screen readers, with the figures in a table beneath.
 */
export function BarChart({ title, unit, data }: { title: string; unit: string; data: readonly BarDatum[] }) {
  const id = useId();
  const { ref, width } = useWidth<HTMLDivElement>();
  const labelWidth = Math.round(width * LABEL_WIDTH);
  const barWidth = Math.max(0, width - labelWidth - 48);
  const height = data.length * ROW;
  const y = scaleBand({ domain: data.map((d) => d.label), range: [0, height], padding: 0.25 });
  const x = scaleLinear({ domain: [0, Math.max(1, ...data.map((d) => d.value))], range: [0, barWidth] });
  const summary = data
    .slice(0, 3)
    .map((d) => `${d.label}: ${d.value}`)
    .join('; ');
  const maxChars = Math.max(8, Math.floor(labelWidth / 7));
  return (
    <figure className="chart" ref={ref}>
      <svg width={width} height={height} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{`${data.length} entries, by ${unit}. ${summary}.`}</desc>
        {data.map((d) => {
          const top = y(d.label) ?? 0;
          const w = x(d.value);
          return (
            <Group key={d.label} top={top}>
              <text
                x={labelWidth - 8}
                y={y.bandwidth() / 2}
                dy="0.35em"
                textAnchor="end"
                fontSize={12}
                fill="var(--text)"
              >
                {clip(d.label, maxChars)}
              </text>
              <Bar x={labelWidth} y={0} width={w} height={y.bandwidth()} rx={3} fill="var(--accent)" />
              <text x={labelWidth + w + 6} y={y.bandwidth() / 2} dy="0.35em" fontSize={12} fill="var(--text)">
                {d.value}
              </text>
            </Group>
          );
        })}
      </svg>
      <DataTable
        caption={title}
        columns={['Name', unit]}
        rows={data.map((d) => [d.label, d.value] as const)}
      />
    </figure>
  );
}
