// Vitest's global setup for every project (vitest.config.ts, tests/release/vitest.config.ts):
// no process a test starts may outlive the run. Setup marks this run in the environment
// every worker, and so every process a test spawns (PocketBase, Prism, stripe-mock, a
// gateway, curl ...), inherits; teardown waits a little for the marked processes to end,
// then kills the ones left and fails the run naming them. A process spawned with an
// environment of its own (not `...process.env`) carries no mark and is not seen.
import { readdirSync, readFileSync } from "node:fs";

export const RUN_MARK_ENV = "PROXY_SHOP_TEST_RUN";

/** How long teardown waits for processes that are still stopping. */
const GRACE_MS = 10_000;

interface Marked {
  pid: number;
  ppid: number;
  command: string;
}

/** The processes whose environment carries `mark`, this one and its pool's workers aside. */
export function markedProcesses(runMark: string): Marked[] {
  const needle = `${RUN_MARK_ENV}=${runMark}`;
  const found: Marked[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(needle)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim();
      // Vitest's own workers (children of this process) end when the pool closes.
      if (ppid === process.pid && /vitest/.test(command)) continue;
      found.push({ pid, ppid, command });
    } catch {
      // Gone meanwhile, or another user's: not ours.
    }
  }
  return found;
}

/** This run's mark; none when an outer run (vitest inside a test) marked the environment: that run checks. */
let mark: string | undefined;

export function setup(): void {
  if (process.env[RUN_MARK_ENV]) return;
  mark = `${process.pid}-${Date.now()}`;
  process.env[RUN_MARK_ENV] = mark;
}

export async function teardown(): Promise<void> {
  if (!mark) return;
  const deadline = Date.now() + GRACE_MS;
  let left = markedProcesses(mark);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    left = markedProcesses(mark);
  }
  if (left.length === 0) return;
  for (const p of left) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  // Vitest reports an error thrown here ("error during close") but still exits 0.
  process.exitCode = 1;
  throw new Error(
    `${left.length} process(es) started by the tests outlived them (now killed); stop each in the test or fixture that starts it:\n` +
      left.map((p) => `  pid ${p.pid} (parent ${p.ppid}): ${p.command.slice(0, 300)}`).join("\n"),
  );
}
