// One row of `npm run bench`'s table. Every benchmark module exports a function that
// measures its figures and returns rows; scripts/bench.ts runs them all and prints one
// table. A timing is always printed next to a reference measured in the same run, so a
// ratio survives the machine's noise.

export interface BenchRow {
  /** What is measured, e.g. "public page /pricing, req/s". */
  figure: string;
  /** The goal in words, e.g. ">= 0.8 x static server" or "p95 < 30 ms". */
  goal: string;
  /** The measured figure, formatted, e.g. "p95 12.4 ms" or "4,210/s (0.86 x)". */
  measured: string;
  /** The reference measured in the same run, formatted; "" when the figure is a byte count or score. */
  reference: string;
  /** true met, false not met, null when there is no goal (an informative row). */
  pass: boolean | null;
  /**
   * "timing" rows (rates, latencies) never fail a CI run on a shared machine; "stable"
   * rows (byte budgets, Lighthouse scores) may.
   */
  kind: "timing" | "stable";
}

/** A benchmark section: a title and the function that measures its rows. */
export interface BenchSection {
  title: string;
  run(): Promise<BenchRow[]>;
}

const verdict = (pass: boolean | null): string => (pass === null ? "-" : pass ? "pass" : "FAIL");

/** The rows as an aligned plain-text table (also readable as Markdown). */
export function formatTable(rows: readonly BenchRow[]): string {
  const header = ["figure", "goal", "measured", "reference", "result"];
  const cells = rows.map((r) => [r.figure, r.goal, r.measured, r.reference, verdict(r.pass)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}

/** Formats a number with thousands separators and `digits` decimals. */
export function num(value: number, digits = 0): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The rows of one section, under its title. */
export interface SectionRows {
  title: string;
  rows: readonly BenchRow[];
}

/**
 * Several sections as ONE aligned table: each section's title on a row of its own (in the
 * figure column, between dashes), then its rows.
 */
export function formatReport(sections: readonly SectionRows[]): string {
  const header = ["figure", "goal", "measured", "reference", "result"];
  const cells: string[][] = [];
  for (const section of sections) {
    cells.push([`-- ${section.title} --`, "", "", "", ""]);
    for (const r of section.rows) cells.push([r.figure, r.goal, r.measured, r.reference, verdict(r.pass)]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}

/** Counts of met, not met and informative rows, split by kind. */
export function tally(rows: readonly BenchRow[]) {
  const count = (pass: boolean | null, kind?: BenchRow["kind"]) =>
    rows.filter((r) => r.pass === pass && (kind === undefined || r.kind === kind)).length;
  return {
    met: count(true),
    notMet: count(false),
    informative: count(null),
    stableNotMet: count(false, "stable"),
    timingNotMet: count(false, "timing"),
  };
}

/** The summary line under a table, e.g. "12 met / 2 not met (2 timing, 0 stable); 3 informative". */
export function summaryLine(rows: readonly BenchRow[]): string {
  const t = tally(rows);
  return `${t.met} met / ${t.notMet} not met (${t.timingNotMet} timing, ${t.stableNotMet} stable)${t.informative ? `; ${t.informative} informative` : ""}`;
}
