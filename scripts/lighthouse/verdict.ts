// What `npm run lighthouse` decides from the scores it measured: the goals, the median,
// when more runs can no longer change a verdict, the bench row and the explanation of a
// miss. Pure functions, unit-tested in tests/unit/lighthouse-verdict.test.ts.
import type { BenchRow } from "../bench/table.ts";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The goals (#8): median of 5, mobile. */
export const GOALS: Readonly<Record<Category, number>> = { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 };

export const SHORT: Readonly<Record<Category, string>> = { performance: "perf", accessibility: "a11y", "best-practices": "bp", seo: "seo" };

/** A page is judged on the median of this many runs. */
export const MAX_RUNS = 5;

/** One Lighthouse run of one page: 0-100 per category, and the audits that lost points. */
export interface PageRun {
  scores: Record<Category, number>;
  /** Per category, lines naming each audit that lost points (worst first). */
  losses: Record<Category, string[]>;
}

export interface PageResult {
  path: string;
  runs: PageRun[];
  /** Median score per category over `runs`. */
  median: Record<Category, number>;
  pass: boolean;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/**
 * The categories the CI form judges. Performance is a timing: on unchanged pages with no
 * JavaScript it measured 91 to 100 on an idle 2-core machine, so it is reported there and
 * judged only by the full form (median of 5); the other three are stable.
 */
export const CI_JUDGED: readonly Category[] = ["accessibility", "best-practices", "seo"];

/** The categories a form judges: every one in the full form, CI_JUDGED in the CI form. */
export const judgedIn = (mode: "full" | "ci"): readonly Category[] => (mode === "ci" ? CI_JUDGED : CATEGORIES);

export const meetsGoals = (scores: Record<Category, number>, judged: readonly Category[] = CATEGORIES): boolean =>
  judged.every((c) => scores[c] >= GOALS[c]);

/**
 * Whether more runs can still change the verdict of a median of MAX_RUNS: per category, the
 * median of 5 meets the goal exactly when at least 3 runs do, so a category is decided once
 * 3 runs fall on one side.
 */
export function undecided(runs: readonly PageRun[], judged: readonly Category[] = CATEGORIES): boolean {
  const needed = (MAX_RUNS >> 1) + 1;
  return judged.some((c) => {
    const passing = runs.filter((r) => r.scores[c] >= GOALS[c]).length;
    return passing < needed && runs.length - passing < needed;
  });
}

export function medians(runs: readonly PageRun[]): Record<Category, number> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))])) as Record<Category, number>;
}

/** For a page that misses a goal: per missed category, the audits that lost points in the run closest to the median. */
export function explainMiss(result: PageResult, judged: readonly Category[] = CATEGORIES): string[] {
  const lines: string[] = [];
  for (const c of judged) {
    if (result.median[c] >= GOALS[c]) continue;
    const run = [...result.runs].sort((a, b) => Math.abs(a.scores[c] - result.median[c]) - Math.abs(b.scores[c] - result.median[c]))[0]!;
    lines.push(`${result.path} ${c} ${result.median[c]} < ${GOALS[c]} (run scoring ${run.scores[c]}):`);
    for (const loss of run.losses[c]) lines.push(`    ${loss}`);
  }
  return lines;
}

export function toRow(result: PageResult, mode: "full" | "ci" = "full"): BenchRow {
  const n = result.runs.length;
  const goals = CATEGORIES.map((c) => GOALS[c]).join("/");
  return {
    figure: `Lighthouse ${result.path} (mobile, median of ${n}${mode === "ci" ? ", ci" : ""}): perf/a11y/bp/seo`,
    goal: mode === "ci" ? `>= ${goals} (perf judged by the full form)` : `>= ${goals}`,
    measured: CATEGORIES.map((c) => result.median[c]).join("/"),
    reference: "",
    pass: result.pass,
    kind: "stable",
  };
}
