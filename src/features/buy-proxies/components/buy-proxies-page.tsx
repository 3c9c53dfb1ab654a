import { valibotResolver } from "@hookform/resolvers/valibot";
import { useStore } from "@nanostores/react";
import { RefreshCw } from "lucide-react";
import { useEffect, useId, useRef, useState, type ComponentProps } from "react";
import { useForm, useWatch, type Resolver } from "react-hook-form";
import { AuthGate } from "@/components/session/auth-gate";
import { Alert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { OrderSummaryCard } from "@/features/buy-proxies/components/order-summary-card";
import { TypeChoice } from "@/features/buy-proxies/components/type-choice";
import {
  availableAt,
  cityOptions,
  countryOptions,
  optionLabel,
  reconcilePlace,
  stateOptions,
  withChosen,
  placeLabel,
  type LocationOption,
  type Place,
} from "@/features/buy-proxies/locations";
import { parseQuantity, ProxyPurchaseSchema, type ProxyPurchaseInput, type ProxyPurchaseOutput } from "@/features/buy-proxies/schemas";
import {
  $countryNames,
  $offer,
  $purchase,
  $stock,
  purchase,
  purchaseEdited,
  reloadStock,
  STOCK_LOADING,
  type StockState,
} from "@/features/buy-proxies/stores";
import { orderSummary } from "@/features/buy-proxies/summary";
import { MAX_PURCHASE_QUANTITY, PROXY_TYPE_LABELS, TERM_TEXT, type ProxyType } from "@/lib/catalog";
import { lazyComponent } from "@/lib/lazy-component";
import type { UserRecord } from "@/lib/pocketbase-types";
import { $balance } from "@/stores/balance";

/** /dashboard/buy-proxies (spec 2.15 and section 5). */
export function BuyProxiesPage() {
  return <AuthGate>{(user) => <BuyProxies user={user} />}</AuthGate>;
}

// The receipt (with its date formatting and copy buttons) loads when a purchase starts.
const loadReceipt = () => import("@/features/buy-proxies/components/purchase-receipt");
const PurchaseReceipt = lazyComponent(loadReceipt, "PurchaseReceipt");
// Only an account that has not verified its e-mail sees the notice: its code loads then.
const VerifyEmailNotice = lazyComponent(() => import("@/components/session/verify-email-notice"), "VerifyEmailNotice");

const DEFAULTS: ProxyPurchaseInput = { type: "RESIDENTIAL", country: "", state: "", city: "", quantity: "1" };

const purchaseResolver = valibotResolver(ProxyPurchaseSchema);

/**
 * The place the form shows and buys. A place the customer chose under the current type
 * stays as chosen, even when its stock runs out under it (someone else bought the last
 * proxy): it then shows 0 available and cannot be bought until the customer changes it.
 * On the other type (`keep` false), only what that type's loaded stock offers counts.
 */
function shownPlace(stockState: StockState, chosen: Place, keep: boolean): Place {
  const place = { country: chosen.country, state: chosen.state, city: chosen.city };
  return !keep && stockState.status === "ready" ? reconcilePlace(stockState.stock.locations, place) : place;
}

interface PlaceSelectProps extends ComponentProps<typeof Select> {
  id: string;
  label: string;
  error?: string | undefined;
  /** The first option's text, for no choice. */
  anyLabel: string;
  options: readonly LocationOption[];
}

/** A level of the place (country, state, city): its stocked values, each with how many are in stock. */
function PlaceSelect({ id, label, error, anyLabel, options, ...select }: PlaceSelectProps) {
  return (
    <Field id={id} label={label} error={error}>
      <Select id={id} {...select}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {optionLabel(o)}
          </option>
        ))}
      </Select>
    </Field>
  );
}

function BuyProxies({ user }: { user: UserRecord }) {
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const balance = useStore($balance);
  const offer = useStore($offer);
  const stocks = useStore($stock);
  const stockOf = (t: ProxyType): StockState => stocks[t] ?? STOCK_LOADING;
  const { processing, serverFields, result } = useStore($purchase);
  const receipt = useRef<HTMLDivElement>(null);
  // The type under which the customer last chose the place (null: not chosen since a type change).
  const [placeType, setPlaceType] = useState<ProxyType | null>(null);
  // Checks what is bought: the place the form shows.
  const resolver: Resolver<ProxyPurchaseInput, unknown, ProxyPurchaseOutput> = (values, context, options) =>
    purchaseResolver({ ...values, ...shownPlace(stockOf(values.type), values, placeType === values.type) }, context, options);
  const { register, handleSubmit, control, setValue, reset, formState } = useForm<ProxyPurchaseInput, unknown, ProxyPurchaseOutput>({
    resolver,
    defaultValues: DEFAULTS,
    mode: "onChange",
  });
  const [type, country, state, city, quantityText] = useWatch({ control, name: ["type", "country", "state", "city", "quantity"] });
  const values = { type, country, state, city, quantity: quantityText };

  const stockState = stockOf(values.type);
  const stock = stockState.status === "ready" ? stockState.stock : null;
  const locations = stock?.locations ?? [];
  const place = shownPlace(stockState, values, placeType === values.type);
  const names = useStore($countryNames);

  // The type chosen is one for sale: the first one when the shop no longer sells it.
  const offered = offer.status === "ready" ? offer.types : null;
  useEffect(() => {
    const first = offered?.[0];
    if (first && !offered.includes(type)) setValue("type", first);
  }, [offered, type, setValue]);

  const stockedCountries = countryOptions(locations);
  const countries = withChosen(stockedCountries, place.country, names.get(place.country));
  const states = withChosen(stateOptions(locations, place.country), place.state);
  const cities = withChosen(cityOptions(locations, place.country, place.state), place.city);
  const quantity = parseQuantity(values.quantity);
  const available = place.country ? availableAt(locations, place) : null;
  const summary = orderSummary({
    unitPriceCents: stock?.unit_price_cents ?? 0,
    quantity,
    balanceCents: balance.status === "ready" ? balance.cents : null,
    available,
    processing,
  });
  // The country's message shows once a purchase was tried; the quantity's as it is typed.
  const countryError = (formState.isSubmitted ? formState.errors.country?.message : undefined) ?? serverFields.country;
  const quantityError = formState.errors.quantity?.message ?? serverFields.quantity;

  const onPurchase = async (order: ProxyPurchaseOutput) => {
    if (!summary.canPurchase) return;
    void loadReceipt().catch(() => {});
    if (!(await purchase(order))) return;
    reset(undefined, { keepValues: true });
    // The receipt sits above the form: bring it into view (small screens) and to the reader.
    window.requestAnimationFrame(() => {
      receipt.current?.scrollIntoView({ block: "start", behavior: "smooth" });
      receipt.current?.focus({ preventScroll: true });
    });
  };

  const edited = () => purchaseEdited();
  const placeChosen = () => {
    setPlaceType(values.type);
    edited();
  };
  const clearBelow = (fields: ReadonlyArray<"state" | "city">) => {
    for (const field of fields) setValue(field, "");
    placeChosen();
  };

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Buy Proxies</h1>
        <p className="text-sm text-slate-600">Choose a type and a location; your proxies are ready at once and last {TERM_TEXT}.</p>
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
        {result ? <PurchaseReceipt result={result} names={names} /> : null}
      </div>

      <form className="grid gap-6 lg:grid-cols-3" onSubmit={(e) => void handleSubmit(onPurchase)(e)} noValidate>
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <TypeChoice
              field={register("type", {
                onChange: () => {
                  setPlaceType(null);
                  purchaseEdited(true);
                },
              })}
            />
          </Card>

          <Card className="space-y-4">
            <div className="flex items-center justify-between gap-3">
              <h2 className="text-lg font-semibold text-slate-900">Location and quantity</h2>
              <Button variant="ghost" size="sm" onClick={() => reloadStock()} disabled={stockState.status === "loading"}>
                <RefreshCw className="size-4" aria-hidden="true" /> Refresh stock
              </Button>
            </div>
            <div aria-live="polite">
              {stockState.status === "error" ? (
                <LoadError message={`Could not load the stock: ${stockState.error}`} onRetry={() => reloadStock()} />
              ) : stock && stockedCountries.length === 0 ? (
                <Alert tone="info">
                  No {PROXY_TYPE_LABELS[values.type]} proxies are in stock right now. Try another type, or check back later.
                </Alert>
              ) : null}
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <PlaceSelect
                id={id("country")}
                label="Country"
                error={countryError}
                anyLabel={stockState.status === "loading" ? "Loading stock..." : "Select a country"}
                options={countries}
                disabled={!stock || countries.length === 0}
                {...fieldAria(id("country"), countryError)}
                {...register("country", { onChange: () => clearBelow(["state", "city"]) })}
                value={place.country}
              />
              <PlaceSelect
                id={id("state")}
                label="State (optional)"
                anyLabel={place.country && states.length === 0 ? "No states listed" : "Any state"}
                options={states}
                disabled={!place.country || states.length === 0}
                {...register("state", { onChange: () => clearBelow(["city"]) })}
                value={place.state}
              />
              <PlaceSelect
                id={id("city")}
                label="City (optional)"
                anyLabel={place.state && cities.length === 0 ? "No cities listed" : "Any city"}
                options={cities}
                disabled={!place.state || cities.length === 0}
                {...register("city", { onChange: placeChosen })}
                value={place.city}
              />
            </div>
            <Field id={id("quantity")} label="Quantity" error={quantityError} className="max-w-40">
              <Input
                id={id("quantity")}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_PURCHASE_QUANTITY}
                step={1}
                {...fieldAria(id("quantity"), quantityError)}
                {...register("quantity", { onChange: edited })}
              />
            </Field>
          </Card>
        </div>

        <div className="space-y-4">
          <OrderSummaryCard
            unitPriceCents={stock ? stock.unit_price_cents : null}
            quantity={quantity}
            place={place}
            placeText={placeLabel(place, names)}
            available={available ?? 0}
            summary={summary}
            verified={user.verified}
          />
          {user.verified ? null : <VerifyEmailNotice email={user.email} />}
        </div>
      </form>
    </div>
  );
}
