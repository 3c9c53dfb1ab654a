// This month's traffic of each of my active proxies (issue #16): one request for the whole
// page (GET /api/v1/proxies/usage-summary), made after the list is ready, so the page's
// first render does not wait for it. Read again whenever the list loads again (Refresh, a
// new page or filter). A failed read shows no figures: the cards work without them.
import { atom, onMount } from "nanostores";
import type { ResponseOf } from "@/lib/api-contract/define";
import type { getProxyUsageSummary } from "@/lib/api-contract/proxies";
import type { MonthUsage } from "@/lib/month-usage";
import { pb, withSignal } from "@/lib/pocketbase";
import { $proxyList } from "@/features/proxies/stores";

export const $monthUsage = atom<Readonly<Record<string, MonthUsage>>>({});

onMount($monthUsage, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    pb()
      .send<ResponseOf<typeof getProxyUsageSummary>>("/api/v1/proxies/usage-summary", withSignal(current.signal))
      .then(
        (usage) => {
          if (!current.signal.aborted) $monthUsage.set(usage);
        },
        () => undefined,
      );
  };
  let status = $proxyList.get().status;
  if (status === "ready") load();
  const unbind = $proxyList.listen((list) => {
    if (list.status === "ready" && status !== "ready") load();
    status = list.status;
  });
  return () => {
    unbind();
    controller?.abort();
  };
});

/** "2026-12-01" -> "Dec 1". */
export function renewsLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}
