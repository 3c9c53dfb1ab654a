// Load generation shared by the benchmarks: closed-loop workers over keep-alive HTTP,
// latency percentiles, medians of runs, and pinning PocketBase and the load to separate
// cores so one does not steal the other's CPU on a 2-core machine.
import { execFileSync } from "node:child_process";
import http from "node:http";
import os from "node:os";

export interface Result {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  status: Map<number, number>;
}

export interface LoadRequest {
  method?: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The q-quantile (0..1) of sorted latencies. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Sends one request and resolves with its status (0 when the connection failed). */
export function send(agent: http.Agent, url: URL, request: LoadRequest): Promise<number> {
  return new Promise<number>((resolve) => {
    const body = request.body ?? "";
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method ?? "POST",
        path: request.path,
        headers: {
          ...request.headers,
          ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

/**
 * `concurrency` loops, each sending its next request when the last one answered, until
 * `seconds` have passed or `until()` says stop.
 */
export async function load(
  baseUrl: string,
  concurrency: number,
  seconds: number,
  request: (worker: number) => LoadRequest,
  until: () => boolean = () => false,
): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(baseUrl);
  const latencies: number[] = [];
  const status = new Map<number, number>();
  const end = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (Date.now() < end && !until()) {
        const t0 = performance.now();
        const code = await send(agent, target, request(worker));
        latencies.push(performance.now() - t0);
        status.set(code, (status.get(code) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    status,
  };
}

/** The run with the median rate. */
export function median(results: Result[]): Result {
  return [...results].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(results.length / 2)]!;
}

/** Requests that failed on the server or the wire. */
export function failures(result: Result): number {
  return [...result.status].filter(([code]) => code >= 500 || code === 0).reduce((sum, [, n]) => sum + n, 0);
}

export const formatResult = (r: Result) =>
  `${r.perSecond.toFixed(0).padStart(6)}/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  statuses ${[...r.status].map(([k, v]) => `${k}x${v}`).join(" ")}`;

/** Pins every thread of `pid` to `core`; false when not possible (1 core, no taskset). */
export function pin(pid: number, core: number): boolean {
  if (os.cpus().length < 2) return false;
  try {
    execFileSync("taskset", ["-a", "-p", "-c", String(core), String(pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Lets every thread of `pid` run on every core again (undoes pin); false when not possible. */
export function unpin(pid: number): boolean {
  const cores = os.cpus().length;
  if (cores < 2) return false;
  try {
    execFileSync("taskset", ["-a", "-p", "-c", `0-${cores - 1}`, String(pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
