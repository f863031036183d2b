import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // builds dist/ and build/ first when a source is newer (the command line and workers run the built output)
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    // one test file per core: vitest's default (cores - 1) ran the files one after another on a 2-core
    // machine (329 s); most files wait on child processes and servers, so two at a time take about 190 s
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
