// The settings snapshot reloader: one reload at a time, and the last one starts after the
// last change notification, so an older read never overwrites a newer one.
import { describe, expect, it } from "vitest";
import { coalesce } from "@/lib/server/coalesce";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("coalesce", () => {
  it("never runs twice at once and runs once more for requests made during a run", async () => {
    let running = 0;
    let maxRunning = 0;
    const gates: Array<ReturnType<typeof deferred>> = [];
    const reload = coalesce(async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
      running--;
    });

    const first = reload();
    const during = [reload(), reload(), reload()];
    expect(gates).toHaveLength(1);
    gates[0]!.resolve();
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    // Three requests during the first run cost exactly one more run.
    expect(gates).toHaveLength(2);
    gates[1]!.resolve();
    await Promise.all([first, ...during]);
    expect(gates).toHaveLength(2);
    expect(maxRunning).toBe(1);
  });

  it("lets the newest read win when reads finish out of order", async () => {
    let version = 0;
    let snapshot = -1;
    const finishes: Array<() => void> = [];
    const reload = coalesce(async () => {
      const read = ++version; // what the database holds when the read starts
      await new Promise<void>((r) => finishes.push(r));
      snapshot = read;
    });
    const a = reload();
    const b = reload(); // a change announced while the first read is under way
    finishes.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    finishes.shift()!();
    await Promise.all([a, b]);
    expect(snapshot).toBe(2);
  });

  it("starts afresh after a failed run", async () => {
    let calls = 0;
    const reload = coalesce(async () => {
      calls++;
      if (calls === 1) throw new Error("backend down");
    });
    await expect(reload()).rejects.toThrow("backend down");
    await reload();
    expect(calls).toBe(2);
  });
});
