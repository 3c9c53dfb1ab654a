// What a purchase bought: the order, its proxies (each with a copy button) and the new balance.
import { CheckCircle2 } from "lucide-react";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import type { PurchaseResult } from "@/features/buy-proxies/api";
import { placeLabel } from "@/features/buy-proxies/locations";
import { isProxyType, PROXY_TYPE_LABELS } from "@/lib/catalog";
import { formatDateTime } from "@/lib/dates";
import { formatCents } from "@/lib/money";
import { endpoint } from "@/lib/endpoint";

export function PurchaseReceipt({ result, names }: { result: PurchaseResult; names?: ReadonlyMap<string, string> }) {
  const { order, proxies } = result;
  const place = { country: order.country, state: order.state, city: order.city };
  const label = isProxyType(order.proxy_type) ? PROXY_TYPE_LABELS[order.proxy_type] : order.proxy_type;
  return (
    <Card className="border-green-200" data-testid="purchase-result">
      <div role="status" className="flex items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-600" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">
            Purchase complete: {order.quantity} {label} {order.quantity === 1 ? "proxy" : "proxies"} in {placeLabel(place, names)} for{" "}
            {formatCents(order.total_cents)}
          </p>
          <p className="text-sm text-slate-600">
            Order {order.id.slice(0, 8).toUpperCase()}. Your new balance is {formatCents(result.balance_cents)}.
          </p>
        </div>
      </div>
      <ul className="mt-4 divide-y divide-slate-100 text-sm">
        {proxies.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="min-w-0 font-mono break-all text-slate-900">{endpoint(p)}</span>
            <span className="flex items-center gap-2 text-slate-600">
              <span>Expires {formatDateTime(p.expires_at)}</span>
              <CopyButton value={endpoint(p)} label={`Copy ${endpoint(p)}`} />
            </span>
          </li>
        ))}
      </ul>
      <a href="/dashboard/proxies" className="mt-3 inline-block text-sm font-medium text-primary hover:underline">
        View your proxies and their credentials in My Proxies
      </a>
    </Card>
  );
}
