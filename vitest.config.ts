import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most suites wait on git, child processes and Chromium rather than the CPU, so two
    // files at once pay off even on two cores (vitest's default would be one).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    minWorkers: 1,
    reporters: ['default'],
  },
});
