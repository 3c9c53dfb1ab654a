import { useStore } from "@nanostores/react";
import { CheckCircle2, RefreshCw } from "lucide-react";
import { ClientResponseError } from "pocketbase";
import { useCallback, useEffect, useId, useRef, useState, type SyntheticEvent } from "react";
import * as v from "valibot";
import { AuthGate } from "@/components/session/auth-gate";
import { VerifyEmailNotice } from "@/components/session/verify-email-notice";
import { Alert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { loadStock, purchaseProxies, type PurchaseResult } from "@/features/buy-proxies/api";
import {
  availableAt,
  cityOptions,
  countryOptions,
  EMPTY_PLACE,
  optionLabel,
  placeLabel,
  reconcilePlace,
  stateOptions,
  type Place,
  type Stock,
} from "@/features/buy-proxies/locations";
import {
  MAX_QUANTITY,
  parseQuantity,
  ProxyPurchaseSchema,
  PURCHASE_TYPE_LABELS,
  PURCHASE_TYPES,
  purchaseErrors,
  type PurchaseField,
  type PurchaseType,
} from "@/features/buy-proxies/schemas";
import { keyForAttempt, orderSummary, type Attempt } from "@/features/buy-proxies/summary";
import { errorMessage, fieldErrors, isAbort } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";
import { $balance, setBalance } from "@/stores/balance";
import { refreshSession } from "@/stores/auth";

/** /dashboard/buy-proxies (spec 2.15 and section 5). */
export function BuyProxiesPage() {
  return <AuthGate>{(user) => <BuyProxies user={user} />}</AuthGate>;
}

type StockState = { status: "loading" } | { status: "ready"; stock: Stock } | { status: "error"; error: string };

const LOADING: StockState = { status: "loading" };

function useStock() {
  const [stocks, setStocks] = useState<Record<PurchaseType, StockState>>({ RESIDENTIAL: LOADING, DATACENTER: LOADING });
  const controller = useRef<AbortController | null>(null);

  /** Loads both types' stock, cancelling a load still under way. */
  const fetchStock = useCallback(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    for (const type of PURCHASE_TYPES) {
      loadStock(type, current.signal)
        .then((stock) => setStocks((s) => ({ ...s, [type]: { status: "ready", stock } })))
        .catch((err: unknown) => {
          if (!isAbort(err)) setStocks((s) => ({ ...s, [type]: { status: "error", error: errorMessage(err) } }));
        });
    }
  }, []);

  useEffect(() => {
    fetchStock();
    return () => controller.current?.abort();
  }, [fetchStock]);

  /** Reloads the stock; `quiet` keeps the current choices on screen meanwhile. */
  const reload = (quiet = false) => {
    if (!quiet) setStocks({ RESIDENTIAL: LOADING, DATACENTER: LOADING });
    fetchStock();
  };

  return { stocks, reload };
}

/** A refused purchase: the server's message, and that nothing was charged. */
interface Refusal {
  message: string;
  uncharged: boolean;
}

function BuyProxies({ user }: { user: UserRecord }) {
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const balance = useStore($balance);
  const { stocks, reload } = useStock();
  const [type, setType] = useState<PurchaseType>("RESIDENTIAL");
  const [wanted, setPlace] = useState<Place>(EMPTY_PLACE);
  const [quantityText, setQuantityText] = useState("1");
  const [submitted, setSubmitted] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [serverFields, setServerFields] = useState<Partial<Record<PurchaseField, string>>>({});
  const [result, setResult] = useState<PurchaseResult | null>(null);
  const busy = useRef(false);
  const receipt = useRef<HTMLDivElement>(null);
  const attempt = useRef<Attempt | null>(null);

  const stockState = stocks[type];
  const stock = stockState.status === "ready" ? stockState.stock : null;
  const locations = stock?.locations ?? [];

  // Only the part of the chosen place that the current stock still offers (after a
  // reload, or on the other type) counts.
  const place = stock ? reconcilePlace(locations, wanted) : wanted;

  const countries = countryOptions(locations);
  const states = stateOptions(locations, place.country);
  const cities = cityOptions(locations, place.country, place.state);
  const quantity = parseQuantity(quantityText);
  const balanceCents = balance.status === "ready" ? balance.cents : null;
  const summary = orderSummary({
    unitPriceCents: stock?.unit_price_cents ?? 0,
    quantity,
    balanceCents,
    available: place.country ? availableAt(locations, place) : null,
    processing,
  });

  const values = { type, ...place, quantity: quantityText };
  const clientErrors = purchaseErrors(values);
  const errors: Partial<Record<PurchaseField, string>> = {
    ...serverFields,
    ...(submitted && clientErrors.country ? { country: clientErrors.country } : {}),
    ...(clientErrors.quantity ? { quantity: clientErrors.quantity } : {}),
  };

  const edited = () => {
    setServerFields({});
    setRefusal(null);
  };

  const onPurchase = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (busy.current) return; // a second click while the first is under way buys nothing more
    setSubmitted(true);
    const parsed = v.safeParse(ProxyPurchaseSchema, values);
    if (!parsed.success || !summary.canPurchase) return;
    busy.current = true;
    setProcessing(true);
    setRefusal(null);
    setServerFields({});
    setResult(null);
    const current = keyForAttempt(attempt.current, JSON.stringify(parsed.output), newIdempotencyKey);
    attempt.current = current;
    try {
      const bought = await purchaseProxies(parsed.output, current.key);
      attempt.current = null;
      setResult(bought);
      setBalance(bought.balance_cents);
      setSubmitted(false);
      reload(true);
      // The receipt sits above the form: bring it into view (small screens) and to the reader.
      window.requestAnimationFrame(() => {
        receipt.current?.scrollIntoView({ block: "start", behavior: "smooth" });
        receipt.current?.focus({ preventScroll: true });
      });
    } catch (err) {
      const status = err instanceof ClientResponseError ? err.status : 0;
      setRefusal({ message: errorMessage(err), uncharged: status >= 400 && status < 500 });
      const fields = fieldErrors(err);
      setServerFields({
        ...(fields["country"] ? { country: fields["country"] } : {}),
        ...(fields["quantity"] ? { quantity: fields["quantity"] } : {}),
      });
      if (status === 409) reload(true);
      if (status === 403) void refreshSession().catch(() => {});
    } finally {
      busy.current = false;
      setProcessing(false);
    }
  };

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Buy Proxies</h1>
        <p className="text-sm text-slate-600">Choose a type and a location; your proxies are ready at once and last 30 days.</p>
      </div>

      {summary.zeroBalance ? (
        <div
          role="status"
          className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="zero-balance"
        >
          <p className="font-medium">Insufficient Balance: You need to add credits to your account before purchasing proxies.</p>
          <a href="/dashboard/buy-credits" className="mt-1 inline-block font-medium text-primary underline">
            Buy Credits
          </a>
        </div>
      ) : null}

      <div aria-live="polite" ref={receipt} tabIndex={-1} className="scroll-mt-4 outline-none">
        {result ? <PurchaseReceipt result={result} /> : null}
      </div>

      <form className="grid gap-6 lg:grid-cols-3" onSubmit={(e) => void onPurchase(e)} noValidate>
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <fieldset>
              <legend className="mb-3 text-lg font-semibold text-slate-900">Proxy type</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                {PURCHASE_TYPES.map((t) => {
                  const s = stocks[t];
                  const total = s.status === "ready" ? s.stock.locations.reduce((n, l) => n + l.available, 0) : null;
                  return (
                    <label
                      key={t}
                      className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-4 has-checked:border-primary has-checked:ring-2 has-checked:ring-primary/30"
                    >
                      <input
                        type="radio"
                        name="type"
                        value={t}
                        checked={type === t}
                        onChange={() => {
                          setType(t);
                          setResult(null);
                          edited();
                        }}
                        className="mt-1"
                      />
                      <span className="min-w-0">
                        <span className="block font-medium text-slate-900">{PURCHASE_TYPE_LABELS[t]}</span>
                        {s.status === "ready" ? (
                          <>
                            <span className="block text-sm text-slate-700" data-testid={`price-${t}`}>
                              {formatCents(s.stock.unit_price_cents)} per proxy / 30 days
                            </span>
                            <span className="block text-xs text-slate-500">{total} in stock</span>
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
            </fieldset>
          </Card>

          <Card className="space-y-4">
            <div className="flex items-center justify-between gap-3">
              <h2 className="text-lg font-semibold text-slate-900">Location and quantity</h2>
              <Button variant="ghost" size="sm" onClick={() => reload()} disabled={stockState.status === "loading"}>
                <RefreshCw className="size-4" aria-hidden="true" /> Refresh stock
              </Button>
            </div>
            <div aria-live="polite">
              {stockState.status === "error" ? (
                <LoadError message={`Could not load the stock: ${stockState.error}`} onRetry={() => reload()} />
              ) : stock && countries.length === 0 ? (
                <Alert tone="info">
                  No {PURCHASE_TYPE_LABELS[type]} proxies are in stock right now. Try the other type, or check back later.
                </Alert>
              ) : null}
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={id("country")} label="Country" error={errors.country}>
                <Select
                  id={id("country")}
                  value={place.country}
                  disabled={!stock || countries.length === 0}
                  onChange={(e) => {
                    setPlace({ country: e.target.value, state: "", city: "" });
                    edited();
                  }}
                  {...fieldAria(id("country"), errors.country)}
                >
                  <option value="">{stockState.status === "loading" ? "Loading stock..." : "Select a country"}</option>
                  {countries.map((o) => (
                    <option key={o.value} value={o.value}>
                      {optionLabel(o)}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field id={id("state")} label="State (optional)">
                <Select
                  id={id("state")}
                  value={place.state}
                  disabled={!place.country || states.length === 0}
                  onChange={(e) => {
                    setPlace({ ...place, state: e.target.value, city: "" });
                    edited();
                  }}
                >
                  <option value="">{place.country && states.length === 0 ? "No states listed" : "Any state"}</option>
                  {states.map((o) => (
                    <option key={o.value} value={o.value}>
                      {optionLabel(o)}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field id={id("city")} label="City (optional)">
                <Select
                  id={id("city")}
                  value={place.city}
                  disabled={!place.state || cities.length === 0}
                  onChange={(e) => {
                    setPlace({ ...place, city: e.target.value });
                    edited();
                  }}
                >
                  <option value="">{place.state && cities.length === 0 ? "No cities listed" : "Any city"}</option>
                  {cities.map((o) => (
                    <option key={o.value} value={o.value}>
                      {optionLabel(o)}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
            <Field id={id("quantity")} label="Quantity" error={errors.quantity} className="max-w-40">
              <Input
                id={id("quantity")}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_QUANTITY}
                step={1}
                value={quantityText}
                onChange={(e) => {
                  setQuantityText(e.target.value);
                  edited();
                }}
                {...fieldAria(id("quantity"), errors.quantity)}
              />
            </Field>
          </Card>
        </div>

        <div className="space-y-4">
          <Card>
            <h2 className="mb-3 text-lg font-semibold text-slate-900">Order summary</h2>
            <dl className="space-y-2 text-sm" data-testid="order-summary">
              <div className="flex justify-between gap-3">
                <dt className="text-slate-600">Unit price (30 days)</dt>
                <dd className="font-medium text-slate-900">{stock ? formatCents(stock.unit_price_cents) : "-"}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-slate-600">Quantity</dt>
                <dd className="font-medium text-slate-900">{quantity ?? "-"}</dd>
              </div>
              {place.country ? (
                <div className="flex justify-between gap-3">
                  <dt className="text-slate-600">Location</dt>
                  <dd className="text-right font-medium break-words text-slate-900">{placeLabel(place)}</dd>
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
                  Only {availableAt(locations, place)} {availableAt(locations, place) === 1 ? "proxy is" : "proxies are"} available in{" "}
                  {placeLabel(place)}; lower the quantity or choose another location.
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
              {user.verified ? (
                <Button type="submit" className="w-full" disabled={!summary.canPurchase} pending={processing} pendingText="Processing...">
                  Purchase
                </Button>
              ) : null}
            </div>
          </Card>
          {user.verified ? null : <VerifyEmailNotice email={user.email} />}
        </div>
      </form>
    </div>
  );
}

function PurchaseReceipt({ result }: { result: PurchaseResult }) {
  const { order, proxies } = result;
  const place = { country: order.country, state: order.state, city: order.city };
  const label =
    order.proxy_type === "RESIDENTIAL" || order.proxy_type === "DATACENTER" ? PURCHASE_TYPE_LABELS[order.proxy_type] : order.proxy_type;
  return (
    <Card className="border-green-200" data-testid="purchase-result">
      <div role="status" className="flex items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-600" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">
            Purchase complete: {order.quantity} {label} {order.quantity === 1 ? "proxy" : "proxies"} in {placeLabel(place)} for{" "}
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
            <span className="min-w-0 font-mono break-all text-slate-900">
              {p.host}:{p.port}
            </span>
            <span className="flex items-center gap-2 text-slate-600">
              <span>Expires {formatDateTime(p.expires_at)}</span>
              <CopyButton value={`${p.host}:${p.port}`} label={`Copy ${p.host}:${p.port}`} />
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
