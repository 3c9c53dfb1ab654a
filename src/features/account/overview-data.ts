// What the dashboard overview shows (spec 2.13), read with the user's own session;
// PocketBase's rules scope every row to the user.
import { pb } from "@/lib/pocketbase";
import type { ProxyRecord, TransactionRecord } from "@/lib/pocketbase-types";

/** The balance is not here: the overview shows the live `$balance` store. */
export interface OverviewData {
  activeProxies: ProxyRecord[];
  activeProxyCount: number;
  recentTransactions: TransactionRecord[];
  /**
   * Sum of |amount| of the spending rows among the latest 5 transactions. The spec counts
   * DEBIT only; proxy purchases are spending too, so a customer who bought proxies
   * doesn't see "$0.00 spent".
   */
  totalSpentCents: number;
  /** The user's affiliate code, for the /signup?ref= link ("" when there is none). */
  affiliateCode: string;
}

export async function loadOverview(userId: string, signal?: AbortSignal): Promise<OverviewData> {
  const client = pb();
  const opts = { requestKey: null, ...(signal ? { signal } : {}) };
  const [proxies, transactions, affiliates] = await Promise.all([
    client.collection("proxies").getList(1, 10, {
      ...opts,
      filter: client.filter('assigned_to_user_id = {:id} && status = "ASSIGNED"', { id: userId }),
      sort: "-created",
    }),
    client
      .collection("transactions")
      .getList(1, 5, { ...opts, filter: client.filter("user_id = {:id}", { id: userId }), sort: "-created", skipTotal: true }),
    client.collection("affiliates").getList(1, 1, { ...opts, filter: client.filter("user_id = {:id}", { id: userId }), skipTotal: true }),
  ]);
  return {
    activeProxies: proxies.items,
    activeProxyCount: proxies.totalItems,
    recentTransactions: transactions.items,
    affiliateCode: affiliates.items[0]?.code ?? "",
    totalSpentCents: transactions.items
      .filter((t) => t.type === "DEBIT" || t.type === "PROXY_PURCHASE")
      .reduce((sum, t) => sum + Math.abs(t.amount_cents), 0),
  };
}
