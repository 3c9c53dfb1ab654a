// Number formats of the Overview's gateway figures (the same rules as Analytics': binary
// units as quotas count, percentages as the server rounded them).

const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** Bytes in binary units, as quotas are counted (src/lib/bytes.ts). */
export { formatBytes } from "@/lib/bytes";

export function formatPercent(value: number): string {
  return `${oneDecimal.format(value)}%`;
}
