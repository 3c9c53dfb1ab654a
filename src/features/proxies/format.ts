// How a proxy reads on its card.
import { daysUntil, formatDate, formatDateUtc } from "@/lib/dates";
import type { ProxyRecord, ProxyStatus } from "@/lib/pocketbase-types";
import { plural } from "@/lib/plural";
import { regionName } from "@/lib/proxy-title";

export const STATUS_BADGES: Record<ProxyStatus, { label: string; tone: "success" | "danger" | "warning" | "neutral" }> = {
  ASSIGNED: { label: "Active", tone: "success" },
  EXPIRED: { label: "Expired", tone: "danger" },
  MAINTENANCE: { label: "Maintenance", tone: "warning" },
  AVAILABLE: { label: "Available", tone: "neutral" },
};

/** "Los Angeles, California, US" (empty parts left out). */
export function locationLabel(proxy: Pick<ProxyRecord, "country" | "state" | "city">): string {
  return [proxy.city, proxy.state, proxy.country].filter(Boolean).join(", ");
}

/** Active and expired proxies (still the owner's) can be renewed. */
export function isRenewable(proxy: Pick<ProxyRecord, "status">): boolean {
  return proxy.status === "ASSIGNED" || proxy.status === "EXPIRED";
}

/**
 * "Expires Jan 02, 2026 · 29 days left", "Expired Jan 02, 2026", "" without a date; the
 * date in the viewer's zone, or in UTC (`inUtc`) where the HTML came from the server.
 */
export function expiryText(proxy: Pick<ProxyRecord, "expires_at" | "status">, now: Date = new Date(), inUtc = false): string {
  const date = inUtc ? formatDateUtc(proxy.expires_at) : formatDate(proxy.expires_at);
  const days = daysUntil(proxy.expires_at, now);
  if (!date || days === null) return "";
  if (proxy.status === "EXPIRED" || days < 0) return `Expired ${date}`;
  if (days === 0) return `Expires ${date} · less than a day left`;
  return `Expires ${date} · ${plural(days, "day", "days")} left`;
}

/** "United States (US)" for a country code the browser knows, else the code itself. */
export function countryLabel(code: string): string {
  const name = regionName(code);
  return name !== code ? `${name} (${code})` : code;
}
