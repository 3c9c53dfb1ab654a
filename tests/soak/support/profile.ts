// The two sizes of the soak suite. `npm test` runs the short form (no SOAK_PROFILE): one
// seed, three crash cycles, fewer customers, well under 90 s on a 2-core machine.
// `npm run test:soak` runs the full one (SOAK_PROFILE=full). SOAK_SEED=<n> replays one seed
// (the failing seed is in the test's name and in its log).
const full = process.env["SOAK_PROFILE"] === "full";
const seedOverride = process.env["SOAK_SEED"] ? Number(process.env["SOAK_SEED"]) : undefined;

export const PROFILE = {
  name: full ? "full" : "short",
  /** Bank test seeds; each runs its own shop. */
  bankSeeds: seedOverride !== undefined ? [seedOverride] : full ? [101, 202, 303, 404, 505] : [101],
  bankSeconds: full ? 60 : 15,
  customers: full ? 50 : 20,
  /** Customers of the bank test who buy and renew through an API key with a monthly spend cap (issue #18). */
  keyBuyers: full ? 6 : 3,
  crashSeed: seedOverride ?? 9001,
  crashCycles: full ? 25 : 3,
  /** A cycle takes seconds on a quiet machine, but a busy one can take ten times that. */
  crashTimeoutMs: (full ? 60 : 10) * 60_000,
} as const;
