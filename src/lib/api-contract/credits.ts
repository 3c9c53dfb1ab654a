// Buying credits (balance) with a credit package: the packages and the checkout
// (pb_hooks/lib/money/payments.js). With Stripe the checkout answers where to pay; the
// balance is credited when Stripe confirms the payment (POST /payments/stripe/webhook).
import * as v from "valibot";
import { exampleOf, routeList, routesOf } from "./define";
import { Cents, Count, Id } from "./schemas";

export const CREDIT_PACKAGE_IDS = ["package-10", "package-25", "package-50", "package-100"] as const;
export const PAYMENT_STATUSES = ["pending", "paid", "failed", "partially_refunded", "refunded", "disputed"] as const;

const StoredDate = v.pipe(v.string(), v.description('UTC as the shop stores it ("2026-11-27 12:40:27.007Z"); "" when not set.'));

export const CreditPackage = v.object({
  id: v.picklist(CREDIT_PACKAGE_IDS),
  credits_cents: v.pipe(Cents, v.description("The balance it buys, in US cents.")),
  price_cents: v.pipe(Cents, v.description("What you pay, in US cents.")),
  bonus_cents: v.pipe(Cents, v.description("Extra balance on top of credits_cents.")),
  popular: v.boolean(),
});

const PACKAGE_EXAMPLE = { id: "package-25", credits_cents: 2500, price_cents: 2500, bonus_cents: 250, popular: true } as const;

const credits = routesOf({ tag: "Credits", scope: "read", idempotency: "required" });

export const listCreditPackages = credits.get("/credits/packages", {
  summary: "Credit packages you can buy",
  description:
    'provider says how this shop takes payments: "stripe" (Stripe Checkout), "test" (a test shop: no money moves, credits arrive at once) or "none" (not set up: the checkout answers 503 with not_set_up_message).',
  response: v.pipe(
    v.object({
      provider: v.picklist(["stripe", "test", "none"]),
      currency: v.pipe(v.string(), v.description('ISO 4217, lower case ("usd").')),
      packages: v.array(CreditPackage),
      not_set_up_message: v.optional(v.pipe(v.string(), v.description('Only with provider "none".'))),
    }),
    v.title("CreditPackages"),
    v.examples([{ provider: "stripe", currency: "usd", packages: [PACKAGE_EXAMPLE] }]),
  ),
});

export const Payment = v.pipe(
  v.object({
    id: Id,
    collectionId: v.string(),
    collectionName: v.literal("payments"),
    user_id: Id,
    package_id: v.picklist(CREDIT_PACKAGE_IDS),
    amount_cents: v.pipe(Cents, v.description("What you pay, in cents of currency.")),
    currency: v.string(),
    credits_cents: Cents,
    bonus_cents: Cents,
    provider: v.picklist(["stripe", "test"]),
    provider_session_id: v.pipe(v.string(), v.description('The Stripe Checkout Session; "" for the test provider.')),
    checkout_url: v.pipe(v.string(), v.description('Where to pay (Stripe Checkout); "" for the test provider.')),
    provider_payment_id: v.pipe(v.string(), v.description('The provider\'s payment id once paid; "" before.')),
    status: v.picklist(PAYMENT_STATUSES),
    paid_at: StoredDate,
    failure_reason: v.string(),
    idempotency_key: v.pipe(v.string(), v.description("The Idempotency-Key of the checkout that made it.")),
    refunded_cents: Count,
    disputed_cents: Count,
    dispute_status: v.picklist(["", "open", "won", "lost"]),
    reversed_at: StoredDate,
    created: StoredDate,
    updated: StoredDate,
  }),
  v.title("Payment"),
  v.description("One attempt to buy a credit package, as the shop stores it (the records API's payments row)."),
  v.examples([
    {
      id: "y6u2i8o4p1a7s3d",
      collectionId: "pbc_3142635823",
      collectionName: "payments",
      user_id: "u1c5g9k3o7s2w6a",
      package_id: "package-25",
      amount_cents: 2500,
      currency: "usd",
      credits_cents: 2500,
      bonus_cents: 250,
      provider: "stripe",
      provider_session_id: "cs_test_a1Example",
      checkout_url: "https://checkout.stripe.com/c/pay/cs_test_a1Example",
      provider_payment_id: "",
      status: "pending",
      paid_at: "",
      failure_reason: "",
      idempotency_key: "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d",
      refunded_cents: 0,
      disputed_cents: 0,
      dispute_status: "",
      reversed_at: "",
      created: "2026-11-27 12:40:27.007Z",
      updated: "2026-11-27 12:40:27.007Z",
    },
  ]),
);

export const createCreditCheckout = credits.post("/credits/checkout", {
  summary: "Buy a credit package",
  description:
    "The price is the shop's, never the request's. With Stripe the payment is pending and checkout_url is where to pay: the balance is credited when Stripe confirms it. With the test provider it is paid at once. Needs a verified e-mail address (403 otherwise); 503 when buying credits is not set up, nothing charged. A retry with the same Idempotency-Key answers the same payment.",
  scope: "purchase",
  body: v.pipe(
    v.object({
      package_id: v.pipe(
        v.picklist(CREDIT_PACKAGE_IDS, `Unknown credit package. Choose one of ${CREDIT_PACKAGE_IDS.join(", ")}.`),
        v.metadata({ errorCode: "validation_invalid_package" }),
      ),
    }),
    v.examples([{ package_id: "package-25" }]),
  ),
  response: v.pipe(
    v.object({
      payment: Payment,
      checkout_url: v.pipe(v.nullable(v.string()), v.description("Where to pay (Stripe Checkout); null for the test provider.")),
      balance_cents: v.pipe(Cents, v.description("Your balance now (a pending Stripe payment has not added to it yet).")),
    }),
    v.title("CreditCheckout"),
    v.examples([{ payment: exampleOf(Payment), checkout_url: "https://checkout.stripe.com/c/pay/cs_test_a1Example", balance_cents: 4500 }]),
  ),
});

export const creditRoutes = routeList({ listCreditPackages, createCreditCheckout });
