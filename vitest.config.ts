import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/bun/**", "test/bench/**", "node_modules/**"],
    pool: "forks",
    // One PostgreSQL server per run for the suites that run on both stores (test/helpers/postgres.ts).
    globalSetup: ["test/helpers/postgres-global.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
