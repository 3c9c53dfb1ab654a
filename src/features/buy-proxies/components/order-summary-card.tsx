// The order summary beside the form: price, quantity, place, total and balance, what stops
// the purchase (balance, stock, a refusal), and the Purchase button.
import { useStore } from "@nanostores/react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { Place } from "@/features/buy-proxies/locations";
import { $purchase } from "@/features/buy-proxies/stores";
import type { Summary } from "@/features/buy-proxies/summary";
import { TERM_TEXT } from "@/lib/catalog";
import { formatCents } from "@/lib/money";
import { $balance } from "@/stores/balance";
import { plural } from "@/lib/plural";

interface OrderSummaryCardProps {
  /** Price of one proxy of the chosen type, when its stock is loaded. */
  unitPriceCents: number | null;
  quantity: number | null;
  place: Place;
  /** The place as the customer reads it ("Norway / Oslo"). */
  placeText: string;
  /** Proxies available at the chosen place (when a country is chosen). */
  available: number;
  summary: Summary;
  /** Only a verified account may buy. */
  verified: boolean;
}

export function OrderSummaryCard({ unitPriceCents, quantity, place, placeText, available, summary, verified }: OrderSummaryCardProps) {
  const balance = useStore($balance);
  const { processing, refusal } = useStore($purchase);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Order summary</h2>
      <dl className="space-y-2 text-sm" data-testid="order-summary">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-600">Unit price ({TERM_TEXT})</dt>
          <dd className="font-medium text-slate-900">{unitPriceCents !== null ? formatCents(unitPriceCents) : "-"}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-600">Quantity</dt>
          <dd className="font-medium text-slate-900">{quantity ?? "-"}</dd>
        </div>
        {place.country ? (
          <div className="flex justify-between gap-3">
            <dt className="text-slate-600">Location</dt>
            <dd className="text-right font-medium break-words text-slate-900">{placeText}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-3 border-t border-slate-200 pt-2 text-base">
          <dt className="font-semibold text-slate-900">Total</dt>
          <dd className="font-bold text-slate-900" data-testid="order-total">
            {formatCents(summary.totalCents)}
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-600">Your balance</dt>
          <dd className="font-medium text-slate-900" data-testid="balance">
            {balance.status === "ready" ? formatCents(balance.cents) : balance.status === "loading" ? "Loading..." : "Unavailable"}
          </dd>
        </div>
      </dl>
      <div aria-live="polite" className="mt-3 space-y-2 text-sm">
        {summary.shortfallText ? (
          <p className="text-red-700">
            {summary.shortfallText}{" "}
            <a href="/dashboard/buy-credits" className="font-medium underline">
              Buy Credits
            </a>
          </p>
        ) : null}
        {summary.shortOfStock ? (
          <p className="text-amber-800" data-testid="stock-short">
            {available === 0
              ? `${placeText} is out of stock; choose another location.`
              : `Only ${plural(available, "proxy is", "proxies are")} available in ${placeText}; lower the quantity or choose another location.`}
          </p>
        ) : null}
        {balance.status === "error" ? <p className="text-red-700">Could not load your balance: {balance.error}</p> : null}
      </div>
      <div aria-live="polite" className="mt-3">
        {refusal ? (
          <Alert tone="error">
            <p>{refusal.message}</p>
            {refusal.uncharged ? <p className="mt-1">Nothing was charged.</p> : null}
          </Alert>
        ) : null}
      </div>
      <div className="mt-4">
        {verified ? (
          <Button type="submit" className="w-full" disabled={!summary.canPurchase} pending={processing} pendingText="Processing...">
            Purchase
          </Button>
        ) : null}
      </div>
    </Card>
  );
}
