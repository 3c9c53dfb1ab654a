// The proxy type radios: every type for sale, each with its price per term and how many are
// in stock ("Out of stock" when none).
import { useStore } from "@nanostores/react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { LoadError } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";
import { $offer, $stock, reloadStock, STOCK_LOADING } from "@/features/buy-proxies/stores";
import { PROXY_TYPE_LABELS, TERM_TEXT } from "@/lib/catalog";
import { formatCents } from "@/lib/money";

export function TypeChoice({ field }: { field: UseFormRegisterReturn<"type"> }) {
  const offer = useStore($offer);
  const stocks = useStore($stock);
  return (
    <fieldset>
      <legend className="mb-3 text-lg font-semibold text-slate-900">Proxy type</legend>
      {offer.status === "error" ? (
        <LoadError message={`Could not load the proxy types for sale: ${offer.error}`} onRetry={() => reloadStock()} />
      ) : offer.status === "loading" ? (
        <div className="grid gap-3 sm:grid-cols-2" aria-busy="true">
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
        </div>
      ) : offer.types.length === 0 ? (
        <p className="text-sm text-slate-600">No proxies are for sale right now. Please check back later.</p>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {offer.types.map((t) => {
            const s = stocks[t] ?? STOCK_LOADING;
            const total = s.status === "ready" ? s.stock.locations.reduce((n, l) => n + l.available, 0) : null;
            return (
              <label
                key={t}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-4 has-checked:border-primary has-checked:ring-2 has-checked:ring-primary/30"
              >
                <input type="radio" value={t} className="mt-1" {...field} />
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{PROXY_TYPE_LABELS[t]}</span>
                  {s.status === "ready" ? (
                    <>
                      <span className="block text-sm text-slate-700" data-testid={`price-${t}`}>
                        {formatCents(s.stock.unit_price_cents)} per proxy / {TERM_TEXT}
                      </span>
                      <span className="block text-xs text-slate-500" data-testid={`stock-${t}`}>
                        {total ? `${total} in stock` : "Out of stock"}
                      </span>
                    </>
                  ) : s.status === "loading" ? (
                    <Skeleton className="mt-1 h-4 w-36" />
                  ) : (
                    <span className="block text-xs text-red-700">Price unavailable</span>
                  )}
                </span>
              </label>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}
