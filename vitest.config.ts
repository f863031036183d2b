import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // builds dist/ and build/ first when a source is newer (the command line and workers run the built output)
    globalSetup: ['test/global-setup.ts'],
    // one test file per core: vitest's default (cores - 1) ran the files one after another on a 2-core
    // machine (329 s); most files wait on child processes and servers, so two at a time take about 190 s
    maxWorkers: Math.max(2, availableParallelism()),
    // `npm test` runs the unit project without the tests tagged slow (minutes on a 2-core machine); `npm run
    // test:slow` runs those and the corpus project (the real robots.txt files of ../shared/corpus, skipped with the
    // reason printed without it); .ci/run runs both
    tags: [{ name: 'slow', description: 'deep property runs, thousands of real files, whole clusters and crawls: npm run test:slow (CI runs it)' }],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/corpus*.test.ts'], testTimeout: 60_000 },
      },
      {
        // each of these walks thousands of real files against the model: minutes on a busy 2-core machine,
        // where the unit limit of 60 s failed them
        extends: true,
        test: { name: 'corpus', include: ['test/corpus*.test.ts'], testTimeout: 300_000 },
      },
    ],
  },
});
