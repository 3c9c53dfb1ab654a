// `npm run test:release` (after `npm run release`): the release file run as a self-hoster
// would, in a project of its own so `vitest run` (npm test) does not pick it up.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "release",
    root: new URL("../..", import.meta.url).pathname,
    include: ["tests/release/**/*.test.ts"],
    // Fails the run when a process a test started outlives it (those with the run's mark).
    globalSetup: ["tests/support/process-guard.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
