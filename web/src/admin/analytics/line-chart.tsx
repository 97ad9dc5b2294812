import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scalePoint } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { useId } from 'react';
import { DataTable } from './data-table';
import { useWidth } from './use-width';

export interface DayCount {
  day: string;
  value: number;
}

const HEIGHT = 220;
const MARGIN = { top: 12, right: 16, bottom: 32, left: 40 };

const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/**
 * One value per day as a line (SVG, drawn with visx). The SVG is an image named by its
 * title and summarised in its description; the table beneath gives every figure.
 */
export function LineChart({ title, unit, data }: { title: string; unit: string; data: readonly DayCount[] }) {
  const id = useId();
  const { ref, width } = useWidth<HTMLDivElement>();
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = Math.max(1, ...data.map((d) => d.value));
  const x = scalePoint({ domain: data.map((d) => d.day), range: [0, innerWidth] });
  const y = scaleLinear({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const total = data.reduce((sum, d) => sum + d.value, 0);
  const peak = data.reduce((best, d) => (d.value > best.value ? d : best), data[0] ?? { day: '', value: 0 });
  // A label every few days, so they never overlap on a phone.
  const every = Math.max(1, Math.ceil(data.length / Math.max(2, Math.floor(innerWidth / 70))));
  return (
    <figure className="chart" ref={ref}>
      <svg width={width} height={HEIGHT} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>
          {`${total} ${unit} over ${data.length} days` +
            (peak.value > 0 ? `, most on ${shortDay(peak.day)} (${peak.value}).` : '.')}
        </desc>
        <Group left={MARGIN.left} top={MARGIN.top}>
          <AxisLeft
            scale={y}
            numTicks={4}
            tickFormat={(v) => String(v)}
            stroke="var(--border)"
            tickStroke="var(--border)"
            tickLabelProps={{ fill: 'var(--muted)', fontSize: 11, textAnchor: 'end', dx: -4, dy: 3 }}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={data.filter((_, i) => i % every === 0).map((d) => d.day)}
            tickFormat={(day) => shortDay(String(day))}
            stroke="var(--border)"
            tickStroke="var(--border)"
            tickLabelProps={{ fill: 'var(--muted)', fontSize: 11, textAnchor: 'middle' }}
          />
          <LinePath
            data={[...data]}
            x={(d) => x(d.day) ?? 0}
            y={(d) => y(d.value)}
            stroke="var(--accent)"
            strokeWidth={2}
            className="chart-line"
          />
          {data.map((d) =>
            d.value > 0 ? (
              <circle key={d.day} cx={x(d.day)} cy={y(d.value)} r={3} fill="var(--accent)" />
            ) : null,
          )}
        </Group>
      </svg>
      <DataTable caption={title} columns={['Day', unit]} rows={data.map((d) => [d.day, d.value] as const)} />
    </figure>
  );
}
