// Buying credits: the packages, the checkout (one Idempotency-Key per attempt) and the
// payment it creates, followed until it settles.
import { pb, withSignal } from "@/lib/pocketbase";
import type { PaymentRecord } from "@/lib/pocketbase-types";

export interface CreditPackage {
  id: string;
  /** Cents of balance the package buys (before the bonus). */
  credits_cents: number;
  /** What the customer pays, in cents. */
  price_cents: number;
  bonus_cents: number;
  popular: boolean;
}

export interface CreditPackages {
  /**
   * "test": the labelled test provider (no real money, paid at once; only with
   * PAYMENTS_TEST_MODE=true); "stripe": Stripe Checkout; "none": buying credits is not set up.
   */
  provider: "stripe" | "test" | "none";
  currency: string;
  packages: CreditPackage[];
  /** With provider "none": the sentence to show instead of the buy buttons. */
  not_set_up_message?: string;
}

export interface CheckoutResult {
  payment: PaymentRecord;
  /** Where to pay (Stripe); null when the payment is already complete (test provider). */
  checkout_url: string | null;
  balance_cents: number;
}

/** GET /api/v1/credits/packages. */
export async function loadPackages(signal?: AbortSignal): Promise<CreditPackages> {
  return pb().send<CreditPackages>("/api/v1/credits/packages", { method: "GET", ...withSignal(signal) });
}

/** POST /api/v1/credits/checkout; `key` is the attempt's Idempotency-Key (reused on retries). */
export async function startCheckout(packageId: string, key: string): Promise<CheckoutResult> {
  return pb().send<CheckoutResult>("/api/v1/credits/checkout", {
    method: "POST",
    body: { package_id: packageId },
    headers: { "Idempotency-Key": key },
    requestKey: null,
  });
}

/** One of my payments (the records API scopes it to me). */
export async function loadPayment(id: string, signal?: AbortSignal): Promise<PaymentRecord> {
  return pb().collection("payments").getOne(id, withSignal(signal));
}

/** Calls `onChange` with every change of the payment; returns the unsubscribe function. */
export async function subscribePayment(id: string, onChange: (payment: PaymentRecord) => void): Promise<() => Promise<void>> {
  return pb()
    .collection("payments")
    .subscribe(id, (event) => {
      if (event.action !== "delete") onChange(event.record);
    });
}
