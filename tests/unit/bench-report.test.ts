// `npm run bench`'s rules (scripts/bench.ts, scripts/bench/table.ts): which sections run,
// that a section which throws is reported and does not stop the others, how rows are
// counted, and that only a stable row (or a section that did not finish) fails a run.
import { describe, expect, it } from "vitest";
import { exitCodeFor, parseArgs, runSections, selectSections } from "../../scripts/bench.ts";
import type { SectionEntry } from "../../scripts/bench/sections.ts";
import { SECTIONS } from "../../scripts/bench/sections.ts";
import { formatReport, summaryLine, tally, type BenchRow } from "../../scripts/bench/table.ts";

const row = (figure: string, pass: boolean | null, kind: BenchRow["kind"]): BenchRow => ({
  figure,
  goal: "goal",
  measured: "measured",
  reference: "",
  pass,
  kind,
});

const entry = (name: string, stable: boolean, rows: BenchRow[] | Error, ciRows?: BenchRow[]): SectionEntry => ({
  name,
  stable,
  load: () =>
    Promise.resolve({
      title: `${name} section`,
      run: () => (rows instanceof Error ? Promise.reject(rows) : Promise.resolve(rows)),
    }),
  ...(ciRows ? { loadCi: () => Promise.resolve({ title: `${name} short`, run: () => Promise.resolve(ciRows) }) } : {}),
});

const quiet = () => {};

const FAKE: SectionEntry[] = [
  entry("timing-a", false, [row("a", true, "timing")]),
  entry("stable-b", true, [row("b", true, "stable")]),
  entry("timing-c", false, [row("c", false, "timing")]),
];

describe("bench arguments and section choice", () => {
  it("reads --ci and --only in both spellings", () => {
    expect(parseArgs([])).toEqual({ ci: false, only: null });
    expect(parseArgs(["--ci"])).toEqual({ ci: true, only: null });
    expect(parseArgs(["--only", "chat, size"])).toEqual({ ci: false, only: ["chat", "size"] });
    expect(parseArgs(["--only=size", "--ci"])).toEqual({ ci: true, only: ["size"] });
  });

  it("refuses an unknown argument and a bare --only", () => {
    expect(() => parseArgs(["--fast"])).toThrow(/Unknown argument --fast/);
    expect(() => parseArgs(["--only"])).toThrow(/--only needs/);
  });

  it("runs every section in order, only stable ones in --ci, and only the named ones with --only", () => {
    expect(selectSections({ ci: false, only: null }, FAKE).map((s) => s.name)).toEqual(["timing-a", "stable-b", "timing-c"]);
    expect(selectSections({ ci: true, only: null }, FAKE).map((s) => s.name)).toEqual(["stable-b"]);
    expect(selectSections({ ci: false, only: ["timing-c", "timing-a"] }, FAKE).map((s) => s.name)).toEqual(["timing-a", "timing-c"]);
    expect(() => selectSections({ ci: false, only: ["nope"] }, FAKE)).toThrow(/Unknown section nope/);
  });

  it("lists each project section once, and the CI short form holds only stable ones", () => {
    const names = SECTIONS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(["purchase", "admin", "chat", "size"]));
    expect(selectSections({ ci: true, only: null }).every((s) => s.stable)).toBe(true);
    expect(selectSections({ ci: true, only: null }).map((s) => s.name)).toContain("size");
  });
});

describe("running sections", () => {
  it("turns a section that throws into a failed row of its kind and still runs the rest", async () => {
    const sections = [
      entry("broken", true, new Error("no Chromium\nstack")),
      entry("timing-broken", false, new Error("port taken")),
      entry("fine", false, [row("ok", true, "timing")]),
    ];
    const { results, crashed } = await runSections(sections, false, quiet, quiet);
    expect(crashed).toEqual(["broken", "timing-broken"]);
    expect(results.map((r) => r.title)).toEqual(["broken section", "timing-broken section", "fine section"]);
    expect(results[0]!.rows).toEqual([expect.objectContaining({ pass: false, kind: "stable", measured: "no Chromium" })]);
    expect(results[1]!.rows).toEqual([expect.objectContaining({ pass: false, kind: "timing", measured: "port taken" })]);
  });

  it("uses a section's short form in --ci", async () => {
    const sections = [entry("lh", true, [row("full", true, "stable")], [row("short", true, "stable")])];
    expect((await runSections(sections, true, quiet)).results[0]!.rows[0]!.figure).toBe("short");
    expect((await runSections(sections, false, quiet)).results[0]!.rows[0]!.figure).toBe("full");
  });
});

describe("the table and the verdict", () => {
  const rows = [row("t ok", true, "timing"), row("t slow", false, "timing"), row("s ok", true, "stable"), row("info", null, "timing")];

  it("counts met, not met and informative rows", () => {
    expect(tally(rows)).toEqual({ met: 2, notMet: 1, informative: 1, stableNotMet: 0, timingNotMet: 1 });
    expect(summaryLine(rows)).toBe("2 met / 1 not met (1 timing, 0 stable); 1 informative");
  });

  it("never fails a run on a timing, always on a stable row or a section that did not finish", () => {
    expect(exitCodeFor(rows, [])).toBe(0);
    expect(exitCodeFor([...rows, row("budget", false, "stable")], [])).toBe(1);
    expect(exitCodeFor(rows, ["chat"])).toBe(1);
  });

  it("prints one aligned table with each section's title above its rows", () => {
    const text = formatReport([
      { title: "First", rows: [row("a long figure name", true, "timing")] },
      { title: "Second", rows: [row("b", false, "stable"), row("c", null, "timing")] },
    ]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(2 + 2 + 3);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[2]).toContain("-- First --");
    expect(lines[4]).toContain("-- Second --");
    expect(lines[5]).toMatch(/\| FAIL +\|$/);
    expect(lines[6]).toMatch(/\| - +\|$/);
  });
});
