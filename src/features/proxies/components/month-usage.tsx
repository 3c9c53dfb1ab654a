import { useStore } from "@nanostores/react";
import { formatBytes } from "@/lib/bytes";
import { formatDateTime } from "@/lib/dates";
import { plural } from "@/lib/plural";
import { $monthUsage, renewsLabel } from "@/features/proxies/usage";

/**
 * A card's "This month: 1.2 GB of 10 GB" with a bar when the proxy has a quota, and its
 * limits in words: a quota used up (new connections refused until the month renews) and a
 * cap on connections at once, and the month's failed connections with the latest one's
 * time and reason. Nothing until the page's usage summary has arrived.
 */
export function MonthUsageLine({ proxyId }: { proxyId: string }) {
  const usage = useStore($monthUsage).usage[proxyId];
  if (!usage) return null;
  const { bytes, quota_bytes: quota, max_connections: cap, quota_reached: reached } = usage;
  return (
    <div className="space-y-1.5 text-sm" data-testid="proxy-usage">
      <p className="text-slate-700">
        This month: <span className="font-medium text-slate-900">{formatBytes(bytes)}</span>
        {quota > 0 ? ` of ${formatBytes(quota)}` : ""}
      </p>
      {quota > 0 ? (
        <div className="h-1.5 overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
          <div
            className={reached ? "h-full bg-red-600" : "h-full bg-primary"}
            style={{ width: `${Math.min(100, (bytes / quota) * 100).toFixed(1)}%` }}
          />
        </div>
      ) : null}
      {reached ? (
        <p className="font-medium text-red-700">Monthly quota used up: new connections are refused until {renewsLabel(usage.renews_on)}</p>
      ) : null}
      {cap > 0 ? <p className="text-slate-600">Up to {plural(cap, "connection", "connections")} at once</p> : null}
      {usage.failed_connections > 0 || usage.last_failure ? (
        <p className="text-amber-800" data-testid="proxy-failures">
          {plural(usage.failed_connections, "failed connection", "failed connections")} this month
          {usage.last_failure ? `; last ${formatDateTime(usage.last_failure.at)}: ${usage.last_failure.reason}` : "."}
        </p>
      ) : null}
    </div>
  );
}
