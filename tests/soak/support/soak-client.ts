// The soak's client side: a seeded PRNG (one stream per actor, so a failing seed replays the
// same decisions) and raw calls to PocketBase that tell "no answer" (it was killed) apart
// from an answer, with a gate that holds callers while it is down.
import { createHash } from "node:crypto";

// ---- Seeded randomness ----------------------------------------------------------------

/** mulberry32: a tiny, well-mixed 32-bit PRNG; `next()` is in [0, 1). */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** An independent stream for `label` (an actor), derived from this seed. */
  static derive(seed: number, label: string): Prng {
    return new Prng(createHash("sha256").update(`${seed}:${label}`).digest().readUInt32LE(0));
  }
}

// ---- Talking to PocketBase -------------------------------------------------------------

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

/** No HTTP answer at all: the connection was refused or cut. */
export class NoAnswer extends Error {}

export async function call(
  url: string,
  method: string,
  path: string,
  options: { token?: string | undefined; body?: unknown; headers?: Record<string, string>; raw?: string | undefined } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.token) headers["authorization"] = options.token;
  let res: Response;
  let text: string;
  try {
    const body = options.raw ?? (options.body === undefined ? null : JSON.stringify(options.body));
    res = await fetch(`${url}${path}`, { method, headers, body, signal: AbortSignal.timeout(60_000) });
    text = await res.text();
  } catch (err) {
    throw new NoAnswer(`${method} ${path}: ${(err as Error).message} ${(err as { cause?: Error }).cause?.message ?? ""}`);
  }
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, body, replayed: res.headers.get("idempotent-replayed") === "true" };
}

/** Whether PocketBase is up; requests that get no answer wait for it before trying again. */
export class ServerGate {
  private upNow = true;
  private waiters: (() => void)[] = [];
  constructor(public url: string) {}
  get isUp(): boolean {
    return this.upNow;
  }
  down(): void {
    this.upNow = false;
  }
  up(): void {
    this.upNow = true;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
  wait(): Promise<void> {
    return this.upNow ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
