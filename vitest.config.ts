import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/fixtures/**', 'node_modules/**'],
    // No test run writes a stored index to the user's cache, nor starts a build of one: the tests
    // of the cache give their own directory.
    env: { RETRIEVAL_CACHE_DIR: 'off' },
  },
});
