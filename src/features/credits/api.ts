// Buying credits: the packages, the checkout (one Idempotency-Key per attempt) and the
// payment it creates, followed until it settles.
import { api } from "@/lib/api-client";
import type { ResponseOf } from "@/lib/api-contract/define";
import { createCreditCheckout, listCreditPackages } from "@/lib/api-contract/credits";
import { pb, withSignal } from "@/lib/pocketbase";
import type { PaymentRecord } from "@/lib/pocketbase-types";

/**
 * listCreditPackages's answer (the contract's CreditPackages). provider "test": the
 * labelled test provider (no real money, paid at once; only with PAYMENTS_TEST_MODE=true);
 * "stripe": Stripe Checkout; "none": buying credits is not set up (not_set_up_message is the
 * sentence to show instead of the buy buttons).
 */
export type CreditPackages = ResponseOf<typeof listCreditPackages>;
export type CreditPackage = CreditPackages["packages"][number];

/**
 * createCreditCheckout's answer (the contract's CreditCheckout): the payment, where to
 * pay (Stripe; null when the payment is already complete: test provider) and the balance now.
 */
export type CheckoutResult = ResponseOf<typeof createCreditCheckout>;

/** The credit packages for sale and how they are paid. */
export async function loadPackages(signal?: AbortSignal): Promise<CreditPackages> {
  return api.call(listCreditPackages, signal ? { signal } : {});
}

/** Starts a checkout; `key` is the attempt's Idempotency-Key (reused on retries). */
export async function startCheckout(packageId: CreditPackage["id"], key: string): Promise<CheckoutResult> {
  return api.call(createCreditCheckout, { body: { package_id: packageId }, idempotencyKey: key });
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
