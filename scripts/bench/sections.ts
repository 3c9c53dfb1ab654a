// Every benchmark section of the project, in the order `npm run bench` runs them (one at
// a time, never two at once: each one loads the machine on its own). This list is the
// one place to add a section: a line with its --only name, whether it is "stable" (byte
// budgets, Lighthouse scores: the CI short form runs and judges only those) and how to
// load it. The import is dynamic so `--only size` does not load the others' modules.
import type { BenchSection } from "./table.ts";

export interface SectionEntry {
  /** The name `--only` takes. */
  name: string;
  /** Stable rows (sizes, scores) may fail a CI run; timing sections never run in --ci. */
  stable: boolean;
  load(): Promise<BenchSection>;
  /** The section's short form for `--ci` (defaults to load()). */
  loadCi?(): Promise<BenchSection>;
}

export const SECTIONS: readonly SectionEntry[] = [
  { name: "public", stable: false, load: async () => (await import("../bench-public.ts")).publicPagesBench },
  { name: "app", stable: false, load: async () => (await import("../bench-app.ts")).appPagesBench },
  { name: "purchase", stable: false, load: async () => (await import("../bench-purchase.ts")).purchaseBench },
  { name: "admin", stable: false, load: async () => (await import("../bench-admin.ts")).adminBench },
  { name: "chat", stable: false, load: async () => (await import("../bench-chat.ts")).chatBench },
  { name: "api", stable: false, load: async () => (await import("../bench-api.ts")).apiBench },
  { name: "gateway", stable: false, load: async () => (await import("../bench-gateway.ts")).gatewayBench },
  { name: "size", stable: true, load: async () => (await import("../bench-size.ts")).sizeBench },
  {
    name: "lighthouse",
    stable: true,
    load: async () => (await import("../lighthouse.ts")).lighthouseBench,
    loadCi: async () => (await import("../lighthouse.ts")).lighthouseCiBench,
  },
];
