const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Formats integer cents as dollars with two decimals: 12345 -> "$123.45". */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}
