// Amounts of traffic in words: "1.2 GB", "512 MB", "0 B". Binary units, as the gateway
// counts quotas (a GB is 2^30 bytes, so a 10 GB quota reads "10 GB"); one decimal below 10.

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];

/** `bytes` in the largest unit that keeps it at least 1: "1.2 GB", "10 GB", "900 KB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  let unit = 0;
  let n = bytes;
  // Step up while the value would print as 1024 or more ("1024 KB" is "1 MB").
  while (unit < UNITS.length - 1 && n >= 1023.95) {
    n /= 1024;
    unit++;
  }
  const text = unit === 0 || n >= 9.95 ? Math.round(n).toLocaleString("en-US") : String(Number(n.toFixed(1)));
  return `${text} ${UNITS[unit]}`;
}
