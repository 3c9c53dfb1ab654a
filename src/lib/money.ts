const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Formats integer cents as dollars with two decimals: 12345 -> "$123.45". */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** Signed cents as a ledger row shows them: 1234 -> "+$12.34", -450 -> "-$4.50". */
export function formatSignedCents(cents: number): string {
  return `${cents >= 0 ? "+" : "-"}${formatCents(Math.abs(cents))}`;
}
