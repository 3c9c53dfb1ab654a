import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": fileURLToPath(new URL("./src", import.meta.url)) };

export default defineConfig({
  test: {
    // Fails the run when a process a test started outlives it (Prism, PocketBase, stripe-mock ...).
    globalSetup: ["tests/support/process-guard.ts"],
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["tests/unit/**/*.test.ts", "src/**/*.test.ts"], sequence: { groupOrder: 0 } } },
      {
        resolve: { alias },
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file starts its own PocketBase; two at a time suits a 2-core machine.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Money under load and crashes, backups and restores. `npm test` runs the short form
        // (one seed, three crash cycles); `npm run test:soak` the full one (SOAK_PROFILE=full).
        resolve: { alias },
        test: {
          name: "soak",
          include: ["tests/soak/**/*.test.ts"],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Hostile input: property-based bodies and queries, cross-account access, brute
        // force. `npm test` runs a short form; `npm run test:hostile` the full one
        // (HOSTILE_PROFILE=full, at least 5,000 generated requests).
        resolve: { alias },
        test: {
          name: "hostile",
          include: ["tests/hostile/**/*.test.ts"],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
