// The verdicts of `npm run lighthouse`: medians, when the short form may stop re-running
// a page, and what a miss prints.
import { describe, expect, it } from "vitest";
import {
  CI_JUDGED,
  explainMiss,
  medians,
  meetsGoals,
  median,
  toRow,
  undecided,
  type PageResult,
  type PageRun,
} from "../../scripts/lighthouse/verdict.ts";

const run = (performance: number, seo = 100, losses: string[] = []): PageRun => ({
  scores: { performance, accessibility: 100, "best-practices": 100, seo },
  losses: { performance: losses, accessibility: [], "best-practices": [], seo: seo < 100 ? ["robots-txt: score 0, costs 9.1 points"] : [] },
});

const result = (path: string, runs: PageRun[]): PageResult => {
  const median = medians(runs);
  return { path, runs, median, pass: meetsGoals(median) };
};

describe("median", () => {
  it("takes the middle of an odd count and the rounded mean of the middle two of an even one", () => {
    expect(median([100, 90, 95, 99, 97])).toBe(97);
    expect(median([98])).toBe(98);
    expect(median([97, 99])).toBe(98);
    expect(median([90, 99, 100, 98])).toBe(99);
  });
});

describe("undecided (the median of 5 is settled once 3 runs fall on one side of every goal)", () => {
  it("needs more runs while neither side of a goal has 3 runs", () => {
    expect(undecided([run(97)])).toBe(true);
    expect(undecided([run(97), run(99)])).toBe(true);
    expect(undecided([run(97), run(99), run(98)])).toBe(true); // 2 pass, 1 fails: not settled
  });

  it("stops at 3 runs on one side, passing or failing", () => {
    expect(undecided([run(97), run(98), run(99), run(100)])).toBe(false);
    expect(undecided([run(90), run(91), run(92)])).toBe(false);
  });

  it("waits for every category", () => {
    expect(undecided([run(99, 91), run(99, 100), run(99, 91), run(100, 100)])).toBe(true);
    expect(undecided([run(99, 91), run(99, 100), run(99, 91), run(100, 91)])).toBe(false);
  });

  it("agrees with the median of what was run whenever it stops", () => {
    // Every sequence of pass/fail scores: stopping early gives the verdict 5 runs would.
    for (let mask = 0; mask < 32; mask++) {
      const all = [0, 1, 2, 3, 4].map((i) => run(mask & (1 << i) ? 99 : 95));
      let n = 1;
      while (n < 5 && undecided(all.slice(0, n))) n++;
      expect(meetsGoals(medians(all.slice(0, n))), `mask ${mask}, stopped at ${n}`).toBe(meetsGoals(medians(all)));
    }
  });
});

describe("a page's row and its explanation", () => {
  it("passes at the goals, and is a stable row", () => {
    const row = toRow(result("/pricing", [run(98), run(100), run(99), run(98), run(97)]));
    expect(row).toMatchObject({ measured: "98/100/100/100", goal: ">= 98/100/100/100", pass: true, kind: "stable", reference: "" });
    expect(row.figure).toContain("median of 5");
  });

  it("names the audits that lost the points, from the run nearest the median", () => {
    const page = result("/signup", [
      run(84, 91, ["total-blocking-time: score 40 (610 ms), costs 18.0 points"]),
      run(60, 91, ["total-blocking-time: score 0"]),
      run(90, 91, ["speed-index: score 80"]),
    ]);
    expect(page.pass).toBe(false);
    expect(toRow(page).measured).toBe("84/100/100/91");
    expect(explainMiss(page)).toEqual([
      "/signup performance 84 < 98 (run scoring 84):",
      "    total-blocking-time: score 40 (610 ms), costs 18.0 points",
      "/signup seo 91 < 100 (run scoring 91):",
      "    robots-txt: score 0, costs 9.1 points",
    ]);
  });

  it("explains nothing for a page that meets its goals", () => {
    expect(explainMiss(result("/", [run(100)]))).toEqual([]);
  });
});

describe("the CI form judges accessibility, best practices and SEO only", () => {
  it("passes a page whose performance alone is below its goal, and still fails one below an SEO goal", () => {
    expect(meetsGoals(run(91).scores, CI_JUDGED)).toBe(true);
    expect(meetsGoals(run(91).scores)).toBe(false);
    expect(meetsGoals(run(100, 91).scores, CI_JUDGED)).toBe(false);
  });

  it("names the performance goal as judged by the full form", () => {
    expect(toRow(result("/", [run(91)]), "ci").goal).toBe(">= 98/100/100/100 (perf judged by the full form)");
  });
});
