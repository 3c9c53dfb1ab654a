// What one level of the chat benchmark measured, and how it reads in the table.
import { quantile } from "./load.ts";
import { num } from "./table.ts";

export interface Latencies {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { p50: NaN, p95: NaN, p99: NaN, max: NaN };
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? NaN };
}

export interface LevelResult {
  clients: number;
  connectFailed: number;
  sent: number;
  sendErrors: number;
  expected: number;
  delivered: number;
  fromSend: Latencies;
  fromCreated: Latencies;
  createAnswer: Latencies;
  loopDelayP99: number;
  loopDelayMax: number;
}

export const ms = (v: number) => (Number.isFinite(v) ? `${num(v, 1)} ms` : "-");

export function describe(r: LevelResult): string {
  const lost = r.expected - r.delivered;
  return (
    `p95 ${ms(r.fromSend.p95)} from send (p50 ${ms(r.fromSend.p50)}, p99 ${ms(r.fromSend.p99)}), ` +
    `p95 ${ms(r.fromCreated.p95)} from created; ${num(r.delivered)}/${num(r.expected)} delivered` +
    `${lost > 0 ? ` (${num(lost)} LOST)` : ""}${r.sendErrors ? `, ${r.sendErrors} sends failed` : ""}` +
    `${r.connectFailed ? `, ${r.connectFailed} clients failed to subscribe` : ""}; ` +
    `reply create answered p95 ${ms(r.createAnswer.p95)}; client loop delay p99 ${ms(r.loopDelayP99)}`
  );
}
