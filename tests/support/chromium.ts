// Debian's Chromium and the flags every browser run of the project uses (Playwright's
// tests, the size and app-page benchmarks, Lighthouse): Playwright cannot download its own
// browsers on these machines.
export const CHROMIUM_PATH = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Playwright's `launch()` options for that Chromium. */
export const CHROMIUM_LAUNCH = { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] };
