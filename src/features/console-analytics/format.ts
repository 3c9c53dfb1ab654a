// Number formats of the Analytics page.

const wholeUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0, minimumFractionDigits: 0 });
const count = new Intl.NumberFormat("en-US");

/** Cents as whole dollars, the daily revenue list's format (admin spec 1, 9): 340050 -> "$3,401". */
export function formatWholeDollars(cents: number): string {
  return wholeUsd.format(Math.round(cents / 100));
}

export function formatCount(n: number): string {
  return count.format(n);
}

/** "Jan 05" for a "YYYY-MM-DD" UTC day. */
export function shortDay(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  if (!y || !m || !d) return date;
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-US", { month: "short", day: "2-digit", timeZone: "UTC" });
}

/** Seconds since the epoch of a "YYYY-MM-DD" UTC day (uPlot's x values). */
export function dayToSeconds(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

/** Share of `part` in `total` as a whole percentage (0 when total is 0). */
export function percent(part: number, total: number): number {
  return total > 0 ? Math.round((part / total) * 100) : 0;
}

const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** Bytes in binary units, as quotas are counted (src/lib/bytes.ts). */
export { formatBytes } from "@/lib/bytes";

/** A percentage the server rounded to one decimal: 97 -> "97%", 96.6 -> "96.6%". */
export function formatPercent(value: number): string {
  return `${oneDecimal.format(value)}%`;
}

/** The bucket holding the median connect time: "≤ 50 ms", or "> 5,000 ms" for the open last one. */
export function formatMedianConnect(median: { at_most_ms: number | null; over_ms: number | null }): string {
  return median.at_most_ms !== null ? `≤ ${count.format(median.at_most_ms)} ms` : `> ${count.format(median.over_ms ?? 0)} ms`;
}
