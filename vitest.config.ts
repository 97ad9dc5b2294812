import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suites of test/ that start no process and no listening server and finish in about a
 * second; every other file of test/ is an integration suite (a real server, git, the CLI,
 * the MCP Inspector, SSH, Chromium) and belongs to `slow`.
 */
const FAST_INTEGRATION = [
  'test/store/**/*.test.ts',
  'test/search/search-index.test.ts',
  'test/foundation/install.test.ts',
  'test/foundation/shared-state.test.ts',
];

/** Unit tests beside the code that spawn git (repositories, remotes, deploy keys). */
const SLOW_UNITS = ['src/git/**/*.test.ts'];

/**
 * Suites that measure the CPU time of this process's event loop thread, run each in a
 * process of its own, after every other suite: in a worker shared with other files
 * (`isolate: false`), collecting the garbage those files left would be counted against the
 * requests measured, and so would the CPU other suites take from a small machine.
 */
const OWN_PROCESS = ['test/http/event-loop-delay.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each worker imports Folio's module graph once and reuses it for every file it runs:
    // importing it afresh per file was a third of the suite's time. Suites share no module
    // state: each builds its own servers, stores and temporary folders.
    isolate: false,
    // Most suites wait on git, child processes and Chromium rather than the CPU, so two
    // files at once pay off even on two cores (vitest's default would be one).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    minWorkers: 1,
    reporters: ['default'],
    // `npm test` runs them all; `npm run test:fast` (`vitest run --project fast`) only the first.
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['src/**/*.test.ts', ...FAST_INTEGRATION],
          exclude: [...configDefaults.exclude, ...SLOW_UNITS],
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/**/*.test.ts', ...SLOW_UNITS],
          exclude: [...configDefaults.exclude, ...FAST_INTEGRATION, ...OWN_PROCESS],
        },
      },
      {
        extends: true,
        // After the other projects, on a machine no other suite is loading: a CPU time
        // measured in a virtual machine also counts what the host took from it meanwhile.
        test: { name: 'own-process', include: OWN_PROCESS, isolate: true, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
