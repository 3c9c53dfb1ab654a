import { PROXY_TYPE_LABELS, TERM_DAYS, type ProxyType } from "@/lib/catalog";

/** A proxy's or an order's type as the catalog names it; "Mixed" for a renewal of several types. */
export const proxyTypeLabel = (type: ProxyType | "") => (type ? PROXY_TYPE_LABELS[type] : "Mixed");

/** "ASSIGNED" -> "Assigned". */
export const statusLabel = (status: string) => status.charAt(0) + status.slice(1).toLowerCase();

/** What a refund does to an order's proxies, in its confirmation (issue #28: one proxy "goes back"). */
export function proxyOutcome(order: { kind: string; quantity: number }): string {
  if (order.kind !== "purchase") {
    return `The ${TERM_DAYS} days this renewal bought are taken off its proxies (those whose time then runs out expire now), and their auto-renewal is switched off.`;
  }
  return order.quantity === 1
    ? "The proxy of this order, if the customer still holds it, goes back to stock with a new password; its credentials stop working."
    : `The ${order.quantity} proxies of this order that the customer still holds go back to stock with new passwords; their credentials stop working.`;
}
