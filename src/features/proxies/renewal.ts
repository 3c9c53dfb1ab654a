// What a renewal costs at today's prices (GET /api/v1/proxies/prices), and whether the
// balance covers it. The server prices the renewal again; this is the quote shown first.
import type { ResponseOf } from "@/lib/api-contract/define";
import type { getProxyPrices } from "@/lib/api-contract/proxies";
import type { ProxyRecord, ProxyType } from "@/lib/pocketbase-types";
import { PROXY_TYPE_LABELS } from "@/lib/catalog";
import { plural } from "@/lib/plural";

/** Unit price per 30 days by type; a type that is not for sale is missing (the contract's PriceList). */
export type PriceList = ResponseOf<typeof getProxyPrices>;

/** At most this many proxies in one renewal (the route's limit). */
export const MAX_RENEWAL = 100;

export interface QuoteLine {
  type: ProxyType;
  label: string;
  count: number;
  unitCents: number;
  totalCents: number;
}

export interface RenewalQuote {
  lines: QuoteLine[];
  totalCents: number;
  /** Types among the proxies that are not for sale (they cannot be renewed). */
  unpriced: ProxyType[];
  /** How much the balance falls short (0 when it covers the total). */
  shortCents: number;
}

export function renewalQuote(proxies: ReadonlyArray<Pick<ProxyRecord, "type">>, prices: PriceList, balanceCents: number): RenewalQuote {
  const counts = new Map<ProxyType, number>();
  for (const proxy of proxies) counts.set(proxy.type, (counts.get(proxy.type) ?? 0) + 1);
  const lines: QuoteLine[] = [];
  const unpriced: ProxyType[] = [];
  for (const [type, count] of counts) {
    const unit = prices[type];
    if (!unit || unit <= 0) {
      unpriced.push(type);
      continue;
    }
    lines.push({ type, label: PROXY_TYPE_LABELS[type], count, unitCents: unit, totalCents: unit * count });
  }
  const totalCents = lines.reduce((sum, line) => sum + line.totalCents, 0);
  return { lines, totalCents, unpriced, shortCents: Math.max(0, totalCents - balanceCents) };
}

/** "1 proxy", "3 proxies". */
export function proxyCount(n: number): string {
  return plural(n, "proxy", "proxies");
}
