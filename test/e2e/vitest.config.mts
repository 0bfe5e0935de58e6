import * as path from 'node:path';
import { defineConfig } from 'vitest/config';

/** The end-to-end suites (npm run test:e2e, npm run test:electron): one at a time, long timeouts. */
export default defineConfig({
  root: path.resolve(import.meta.dirname, '..', '..'),
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
