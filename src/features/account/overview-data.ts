// What the dashboard overview shows (spec 2.13), read with the user's own session;
// PocketBase's rules scope every row to the user. The same reads run on the server for
// the page's first render (src/lib/server/first-data.ts) and in the browser after it.
import { pb, withSignal, type TypedPocketBase } from "@/lib/pocketbase";
import type { ProxyRecord, TransactionRecord } from "@/lib/pocketbase-types";
import type { FirstDataContext } from "@/lib/server/first-data";
import { fetchBalanceCents, type BalanceSeed } from "@/stores/balance";
import type { Connectable } from "@/lib/connection-lines";

/** What the overview lists of a proxy: no credentials. */
export type OverviewProxy = Pick<ProxyRecord, "id" | "host" | "port" | "type" | "country" | "city" | "username">;
/** The newest active proxy, for "Testing Your Proxies": all a curl command needs (`ports` from servers that send it). */
export type TestProxy = Pick<ProxyRecord, "host" | "port" | "type" | "username" | "password"> & Pick<Connectable, "ports">;
// Credentials are read for the list but kept only for its first proxy (testProxy).
const OVERVIEW_PROXY_FIELDS = "id,host,port,type,country,city,ports,username,password";
/** What the overview lists of a ledger row. */
export type OverviewTransaction = Pick<TransactionRecord, "id" | "type" | "amount_cents" | "description" | "created">;
const OVERVIEW_TRANSACTION_FIELDS = "id,type,amount_cents,description,created";

/** The balance is not here: the overview shows the live `$balance` store. */
export interface OverviewData {
  activeProxies: OverviewProxy[];
  activeProxyCount: number;
  recentTransactions: OverviewTransaction[];
  /**
   * Sum of |amount| of the spending rows among the latest 5 transactions. The spec counts
   * DEBIT only; proxy purchases are spending too, so a customer who bought proxies
   * doesn't see "$0.00 spent".
   */
  totalSpentCents: number;
  /** The user's affiliate code, for the /signup?ref= link ("" when there is none). */
  affiliateCode: string;
  /** The newest active proxy with its credentials, for the curl example; null without one. */
  testProxy: TestProxy | null;
}

export async function loadOverview(userId: string, signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<OverviewData> {
  const opts = withSignal(signal);
  const [proxies, transactions, affiliates] = await Promise.all([
    client.collection("proxies").getList<OverviewProxy & TestProxy>(1, 10, {
      ...opts,
      filter: client.filter('assigned_to_user_id = {:id} && status = "ASSIGNED"', { id: userId }),
      sort: "-created",
      fields: OVERVIEW_PROXY_FIELDS,
    }),
    client.collection("transactions").getList<OverviewTransaction>(1, 5, {
      ...opts,
      filter: client.filter("user_id = {:id}", { id: userId }),
      sort: "-created",
      skipTotal: true,
      fields: OVERVIEW_TRANSACTION_FIELDS,
    }),
    client.collection("affiliates").getList(1, 1, {
      ...opts,
      filter: client.filter("user_id = {:id}", { id: userId }),
      skipTotal: true,
      fields: "code",
    }),
  ]);
  const first = proxies.items[0];
  return {
    activeProxies: proxies.items.map(({ id, host, port, type, country, city, username }) => ({
      id,
      host,
      port,
      type,
      country,
      city,
      username,
    })),
    testProxy: first
      ? {
          host: first.host,
          port: first.port,
          type: first.type,
          username: first.username,
          password: first.password,
          ...(first.ports ? { ports: first.ports } : {}),
        }
      : null,
    activeProxyCount: proxies.totalItems,
    recentTransactions: transactions.items,
    affiliateCode: affiliates.items[0]?.code ?? "",
    totalSpentCents: transactions.items
      .filter((t) => t.type === "DEBIT" || t.type === "PROXY_PURCHASE")
      .reduce((sum, t) => sum + Math.abs(t.amount_cents), 0),
  };
}

/** The overview's first data, read on the server with the user's session (pages/dashboard/index.astro). */
export const overviewFirstData = {
  overview: ({ client, user, signal }: FirstDataContext): Promise<OverviewData> => loadOverview(user.id, signal, client),
  balance: async ({ client, user, signal }: FirstDataContext): Promise<BalanceSeed> => ({
    userId: user.id,
    cents: await fetchBalanceCents(user.id, signal, client),
  }),
};
