// `npm run bench`: every benchmark section of the project (scripts/bench/sections.ts), one
// after the other, then ONE table: figure, goal, measured, reference (measured in the same
// run), result; and a summary line.
//
//   npm run bench                      every section
//   npm run bench -- --only chat,size  some sections (names in scripts/bench/sections.ts)
//   npm run bench -- --ci              the CI short form: only the "stable" sections (byte
//                                      budgets, Lighthouse's short form)
//
// Exit code: non-zero when a "stable" row (a byte budget, a Lighthouse score) misses its
// goal or a section fails to run at all. A timing that misses its goal is reported in the
// table, never as a failed run: timings on a shared machine are noise-prone.
import { unpin } from "./bench/load.ts";
import { exitWhenDone, isMain } from "./bench/run.ts";
import { SECTIONS, type SectionEntry } from "./bench/sections.ts";
import { formatReport, summaryLine, tally, type BenchRow, type SectionRows } from "./bench/table.ts";

export interface BenchOptions {
  ci: boolean;
  only: readonly string[] | null;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  let only: string[] | null = null;
  let ci = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--ci") ci = true;
    else if (arg === "--only" || arg.startsWith("--only=")) {
      const value = arg === "--only" ? argv[++i] : arg.slice("--only=".length);
      if (!value) throw new Error("--only needs a list of section names, e.g. --only chat,size");
      only = value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    } else if (arg === "--help" || arg === "-h") {
      throw new Error(usage());
    } else {
      throw new Error(`Unknown argument ${arg}\n${usage()}`);
    }
  }
  return { ci, only };
}

function usage(): string {
  return `usage: npm run bench [-- [--ci] [--only <name,...>]]; sections: ${SECTIONS.map((s) => s.name + (s.stable ? " (stable)" : "")).join(", ")}`;
}

/** The sections to run, in their order. */
export function selectSections(options: BenchOptions, sections: readonly SectionEntry[] = SECTIONS): SectionEntry[] {
  if (options.only) {
    const unknown = options.only.filter((name) => !sections.some((s) => s.name === name));
    if (unknown.length > 0) throw new Error(`Unknown section ${unknown.join(", ")}\n${usage()}`);
  }
  return sections.filter((s) => (!options.ci || s.stable) && (!options.only || options.only.includes(s.name)));
}

/** Runs the sections one at a time; a section that throws becomes a failed row, and the rest still run. */
export async function runSections(
  entries: readonly SectionEntry[],
  ci: boolean,
  log: (line: string) => void = (line) => console.log(line),
  logError: (line: string, err: unknown) => void = (line, err) => console.error(line, err),
): Promise<{ results: SectionRows[]; crashed: string[] }> {
  const results: SectionRows[] = [];
  const crashed: string[] = [];
  for (const entry of entries) {
    const started = performance.now();
    let title = entry.name;
    try {
      const section = await (ci && entry.loadCi ? entry.loadCi() : entry.load());
      title = section.title;
      log(`\n=== ${title} ===`);
      const rows = await section.run();
      results.push({ title, rows });
      log(`=== ${title}: ${summaryLine(rows)} (${((performance.now() - started) / 1000).toFixed(0)} s) ===`);
    } catch (err) {
      crashed.push(entry.name);
      const message = err instanceof Error ? err.message : String(err);
      logError(`${title} failed:`, err);
      const row: BenchRow = {
        figure: `${title}: the section did not finish`,
        goal: "runs",
        measured: message.split("\n")[0]!.slice(0, 120),
        reference: "",
        pass: false,
        kind: entry.stable ? "stable" : "timing",
      };
      results.push({ title, rows: [row] });
    } finally {
      // A section may have pinned this process to one core; the next one (Chromium for
      // Lighthouse, say) must not inherit that.
      unpin(process.pid);
    }
  }
  return { results, crashed };
}

/**
 * The run's exit code: 1 when a stable row (a byte budget, a Lighthouse score, an
 * invariant) missed its goal or a section did not finish; timings never fail a run.
 */
export function exitCodeFor(rows: readonly BenchRow[], crashed: readonly string[]): number {
  return tally(rows).stableNotMet > 0 || crashed.length > 0 ? 1 : 0;
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 2;
    return;
  }
  const entries = selectSections(options);
  console.log(`Sections: ${entries.map((e) => e.name).join(", ")}${options.ci ? " (CI short form: stable sections only)" : ""}`);
  const { results, crashed } = await runSections(entries, options.ci);
  const rows = results.flatMap((r) => r.rows);
  console.log(`\n${formatReport(results)}\n`);
  console.log(summaryLine(rows) + (crashed.length ? `; did not finish: ${crashed.join(", ")}` : ""));
  process.exitCode = exitCodeFor(rows, crashed);
}

if (isMain(import.meta.url)) {
  await main();
  exitWhenDone();
}
