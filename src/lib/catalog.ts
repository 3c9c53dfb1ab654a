// The shop's fixed facts, once: proxy and transaction types with their labels, the purchase
// limit, the 30-day term, the 7-day refund window, the welcome-credit cap and the support
// limits. The JSON lives beside the hooks (pb_hooks/lib/catalog.json), which read the same
// file, so a page can never state a number the server does not enforce.
import { catalog } from "./shared-data";

export const PROXY_TYPES = ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"] as const;
export type ProxyType = (typeof PROXY_TYPES)[number];

export const PURCHASE_TYPES = ["RESIDENTIAL", "DATACENTER"] as const satisfies readonly ProxyType[];
export type PurchaseType = (typeof PURCHASE_TYPES)[number];

export const TRANSACTION_TYPES = ["CREDIT", "DEBIT", "PROXY_PURCHASE", "REFUND"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

function byValue<K extends string, T extends { value: string }>(keys: readonly K[], rows: readonly T[]): Record<K, T> {
  const map = {} as Record<K, T>;
  for (const key of keys) {
    const row = rows.find((r) => r.value === key);
    if (!row) throw new Error(`catalog.json lacks ${key}`);
    map[key] = row;
  }
  return map;
}

const proxyTypes = byValue(PROXY_TYPES, catalog.proxy_types);

// The literal lists above give TypeScript its unions; the JSON stays the one statement of the facts.
const purchasable = catalog.proxy_types.filter((t) => t.purchasable).map((t) => t.value);
if (purchasable.join() !== PURCHASE_TYPES.join()) throw new Error("catalog.json's purchasable types differ from PURCHASE_TYPES");

const transactionTypes = byValue(TRANSACTION_TYPES, catalog.transaction_types);

/** "Residential", "Datacenter", "SOCKS5", "HTTP", "HTTPS". */
export const PROXY_TYPE_LABELS = Object.fromEntries(PROXY_TYPES.map((t) => [t, proxyTypes[t].label])) as Record<ProxyType, string>;

/** "Credit", "Debit", "Proxy Purchase", "Refund". */
export const TRANSACTION_TYPE_LABELS = Object.fromEntries(TRANSACTION_TYPES.map((t) => [t, transactionTypes[t].label])) as Record<
  TransactionType,
  string
>;

/** The Transactions page's type filter: "Credits Added", "Debits", "Proxy Purchases", "Refunds". */
export const TRANSACTION_TYPE_FILTERS: ReadonlyArray<{ value: TransactionType; label: string }> = TRANSACTION_TYPES.map((value) => ({
  value,
  label: transactionTypes[value].filter_label,
}));

/** CREDIT and REFUND add to a balance (shown green, positive); the others take from it. */
export function isIncoming(type: TransactionType): boolean {
  return transactionTypes[type].incoming;
}

export function isProxyType(value: string): value is ProxyType {
  return (PROXY_TYPES as readonly string[]).includes(value);
}

export function isTransactionType(value: string): value is TransactionType {
  return (TRANSACTION_TYPES as readonly string[]).includes(value);
}

/** Days a purchase or a renewal buys. */
export const TERM_DAYS = catalog.proxy_term_days;
/** Days an order can be refunded under the money-back promise. */
export const REFUND_WINDOW_DAYS = catalog.refund_window_days;
/** "30 days": the term, as pages state it. */
export const TERM_TEXT = `${TERM_DAYS} days`;
/** "7-day money-back guarantee". */
export const MONEY_BACK_GUARANTEE = `${REFUND_WINDOW_DAYS}-day money-back guarantee`;
/** Days an expired proxy stays renewable before it goes back to stock. */
export const RENEWAL_GRACE_DAYS = catalog.renewal_grace_days;

export const MAX_PURCHASE_QUANTITY = catalog.purchase.max_quantity;
/** "Maximum 100 proxies per purchase". */
export const MAX_PURCHASE_QUANTITY_MESSAGE = catalog.purchase.max_quantity_message;
export const MAX_GENERATE = catalog.inventory.max_generate;
/** The inventory's limits: a batch, an import, a proxy password's length, and their messages. */
export const INVENTORY_LIMITS = catalog.inventory;
/** The contact form's name limit and its message. */
export const CONTACT_LIMITS = catalog.contact;
export const MAX_WELCOME_CREDIT_CENTS = catalog.welcome_credit.max_cents;
export const MAX_WELCOME_CREDITS_PER_ADDRESS = catalog.welcome_credit.max_per_address_per_day;
export const SUPPORT_LIMITS = catalog.support;
export const ADMIN_NOTE_MAX = catalog.admin_note_max;
/** One balance adjustment moves at most this many cents ($1,000,000.00). */
export const MAX_ADJUSTMENT_CENTS = catalog.balance_adjustment.max_cents;
/** "Amount must be at most $1,000,000.00 per adjustment". */
export const MAX_ADJUSTMENT_MESSAGE = catalog.balance_adjustment.max_message;
/** A pricing plan costs at most this many cents per proxy ($10,000.00). */
export const MAX_PLAN_PRICE_CENTS = catalog.pricing_plan.max_price_cents;
/** "Price must be at most $10,000.00 per proxy". */
export const MAX_PLAN_PRICE_MESSAGE = catalog.pricing_plan.max_price_message;

/** The affiliate programme's terms: 20% commission, 30-day cookie, monthly payouts. */
export const AFFILIATE_TERMS = catalog.affiliate;
/** A payout is at least this many cents ($50.00); the pay route refuses less. */
export const MIN_PAYOUT_CENTS = catalog.affiliate.minimum_payout_cents;
/** A payout method is at most this many characters. */
export const PAYOUT_METHOD_MAX = catalog.affiliate.payout_method_max;
/** "Payout method must be at most 500 characters". */
export const PAYOUT_METHOD_MAX_MESSAGE = catalog.affiliate.payout_method_max_message;
