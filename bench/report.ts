import os from 'node:os';

export interface Figure {
  figure: string;
  value: string;
  goal?: string;
}

/** The p-th percentile (nearest rank) of a list of samples. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

/** Prints a benchmark's figures as Markdown rows ready for bench/RESULTS.md. */
export function report(name: string, figures: Figure[]): void {
  const machine = `${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.versions.node}`;
  const date = new Date().toISOString().slice(0, 10);
  console.log(`\n## ${name} (${date}, ${machine})\n`);
  console.log('| figure | value | goal |\n| --- | --- | --- |');
  for (const f of figures) console.log(`| ${f.figure} | ${f.value} | ${f.goal ?? ''} |`);
}
