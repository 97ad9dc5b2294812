/**
 * The young generation of a `folio` run without V8 flags (plain `node bin/folio.js`).
 *
 * V8 starts the young generation at 1 MB and doubles it, up to 16 MB, while much of what
 * it allocates survives, as during a start. Kept at 1 MB, a start makes about 28 young
 * collections instead of 10. Each one lowers V8's first limit for the old generation, so
 * a full marking then runs just before the first request: about 30 ms of a 175 ms start
 * (bench/RESULTS.md, startup). Left to grow to 16 MB, a server at rest holds about 12 MB
 * more.
 *
 * So it may grow to 4 MB while the bundle loads, and then it stays there. A running
 * process cannot cap the young generation, but V8 reads `--semi-space-growth-factor` each
 * time it grows it, and a factor of 1 stops the growth. `npm start` passes a fixed size
 * on the command line instead.
 *
 * Measured with `npm run build && npm run bench startup`: plain `node` started in about 140
 * ms against 170 ms with the young generation kept at 1 MB, for about 6 MB more at rest.
 */
import v8 from 'node:v8';

/** The size of each of the young generation's two halves once it stops growing. */
const SEMI_SPACE_BYTES = 4 * 1024 * 1024;
/** When the young generation stops growing if the start never reached that size. */
const STOP_AFTER_MS = 1_000;

export interface YoungGeneration {
  /** Stops the growth once the young generation has reached its size; called after each file loads. */
  check(): void;
  /** Whether the growth has stopped, which changed a V8 flag. */
  readonly stopped: boolean;
  /**
   * Runs `work` under the V8 flags the process started with. V8 refuses a code cache
   * made under other flags than it is read under, and the stopped growth is a flag: a
   * cache read before the growth stopped is made under the start's flags. Only for a
   * moment's work, since the young generation could grow again meanwhile.
   */
  underStartFlags<T>(work: () => T): T;
}

export function growYoungGenerationDuringStart(): YoungGeneration {
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    setGrowthFactor(1);
    // A worker thread's start puts V8's flags back as the command line gave them, for the
    // whole process: the growth is stopped again once the worker runs.
    process.on('worker', (worker) => worker.once('online', () => setGrowthFactor(1)));
  };
  const timer = setTimeout(() => stopped || stop(), STOP_AFTER_MS).unref();
  return {
    get stopped() {
      return stopped;
    },
    check() {
      if (!stopped && newSpaceBytes() >= 2 * SEMI_SPACE_BYTES) stop();
    },
    underStartFlags(work) {
      if (!stopped) return work();
      setGrowthFactor(2); // V8's default
      try {
        return work();
      } finally {
        setGrowthFactor(1);
      }
    },
  };
}

function setGrowthFactor(factor: number): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

function newSpaceBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
