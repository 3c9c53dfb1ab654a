import { defineConfig } from "@playwright/test";
import { E2E } from "./tests/e2e/support/env.ts";
import { CHROMIUM_LAUNCH } from "./tests/support/chromium.ts";

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/support/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: process.env["CI"] ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env["CI"] ? [["list"]] : [["list"]],
  use: {
    baseURL: E2E.baseUrl,
    trace: "retain-on-failure",
    launchOptions: CHROMIUM_LAUNCH,
  },
});
