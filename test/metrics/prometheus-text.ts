/**
 * Reads one sample from Prometheus text exposition: the value of `name` whose labels
 * include `labels` (any order), 0 when there is none yet (a counter not yet incremented).
 */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value)) return Number(match[3]);
  }
  return 0;
}
