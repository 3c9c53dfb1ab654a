// Number formats of the Overview's gateway figures (the same rules as Analytics': binary
// units as quotas count, percentages as the server rounded them).

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"] as const;
const whole = new Intl.NumberFormat("en-US");
const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** 12000 -> "11.7 KB" (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? whole.format(value) : oneDecimal.format(value)} ${UNITS[unit]}`;
}

export function formatPercent(value: number): string {
  return `${oneDecimal.format(value)}%`;
}
