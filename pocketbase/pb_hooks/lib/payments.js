// @ts-check
// Buying credits. One provider interface, two providers:
// - "stripe" when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set: a Checkout Session
//   is created on the server at the server's price, and the balance is credited only by a
//   verified webhook (verifyStripeSignature);
// - "test" otherwise (the embedded default): no money moves, the payment completes at once.
// Both credit through completePayment, once per payment however often it is called.

/** @type {typeof import("./ledger.js")} */
const ledger = require(`${__hooks}/lib/ledger.js`);

/**
 * The credit packages (spec section 3). Credits are cents of balance; price is what the
 * customer pays, in US cents.
 * @type {ReadonlyArray<{ id: string, credits_cents: number, price_cents: number, bonus_cents: number, popular: boolean }>}
 */
const PACKAGES = [
  { id: "package-10", credits_cents: 1000, price_cents: 1000, bonus_cents: 0, popular: false },
  { id: "package-25", credits_cents: 2500, price_cents: 2400, bonus_cents: 100, popular: false },
  { id: "package-50", credits_cents: 5000, price_cents: 4500, bonus_cents: 500, popular: true },
  { id: "package-100", credits_cents: 10000, price_cents: 8500, bonus_cents: 1500, popular: false },
];

const CURRENCY = "usd";
/** Webhook timestamps older (or newer) than this are refused, against replays of old events. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** @param {string} name */
function env(name) {
  return ($os.getenv(name) || "").trim();
}

/** @returns {"stripe" | "test"} */
function providerName() {
  return env("STRIPE_SECRET_KEY") && env("STRIPE_WEBHOOK_SECRET") ? "stripe" : "test";
}

/**
 * The package with this id, or a 400 naming the field.
 * @param {unknown} id
 */
function findPackage(id) {
  const pkg = PACKAGES.find((p) => p.id === id);
  if (!pkg) {
    const message = `Unknown credit package. Choose one of ${PACKAGES.map((p) => p.id).join(", ")}.`;
    throw new BadRequestError(message, { package_id: new ValidationError("validation_invalid_package", message) });
  }
  return pkg;
}

/**
 * Creates the pending payment of one checkout attempt, with its Idempotency-Key, inside the
 * caller's transaction. With the test provider it completes at once in the same transaction.
 * @param {CoreApp} txApp
 * @param {core.Record} user
 * @param {(typeof PACKAGES)[number]} pkg
 * @param {{ key: string, hash: string }} idempotency
 * @returns {string} the payment id
 */
function createPayment(txApp, user, pkg, idempotency) {
  const provider = providerName();
  const payment = new Record(txApp.findCachedCollectionByNameOrId("payments"));
  payment.set("user_id", user.id);
  payment.set("package_id", pkg.id);
  payment.set("amount_cents", pkg.price_cents);
  payment.set("currency", CURRENCY);
  payment.set("credits_cents", pkg.credits_cents);
  payment.set("bonus_cents", pkg.bonus_cents);
  payment.set("provider", provider);
  payment.set("status", "pending");
  payment.set("idempotency_key", idempotency.key);
  payment.set("request_hash", idempotency.hash);
  txApp.save(payment);
  if (provider === "test") {
    completePayment(txApp, payment.id, { providerPaymentId: `test_${payment.id}`, amountCents: pkg.price_cents, currency: CURRENCY });
  }
  return payment.id;
}

/**
 * application/x-www-form-urlencoded with Stripe's nested keys (a[b][0][c]=v).
 * @param {Record<string, unknown>} params
 * @param {string} [prefix]
 * @returns {string[]}
 */
function formFields(params, prefix = "") {
  /** @type {string[]} */
  const out = [];
  for (const [key, value] of Object.entries(params)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value === undefined || value === null) continue;
    if (typeof value === "object") {
      out.push(...formFields(/** @type {Record<string, unknown>} */ (value), name));
    } else {
      out.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
    }
  }
  return out;
}

/**
 * Opens a Stripe Checkout Session for a pending payment (outside any transaction: it is a
 * network call) and stores its id and URL on the payment. Stripe's own Idempotency-Key is
 * the payment id, so a retry gets the same session. Returns the checkout URL.
 * @param {CoreApp} app
 * @param {core.Record} payment
 * @param {core.Record} user
 */
function openStripeCheckout(app, payment, user) {
  const { appUrl } = require(`${__hooks}/lib/mail.js`);
  const base = appUrl(app);
  const credits = ledger.formatUsd(payment.getInt("credits_cents"));
  const bonus = payment.getInt("bonus_cents");
  const body = formFields({
    mode: "payment",
    client_reference_id: payment.id,
    customer_email: user.email(),
    success_url: `${base}/dashboard/buy-credits?payment=${payment.id}&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/dashboard/buy-credits?payment=${payment.id}&canceled=1`,
    metadata: { payment_id: payment.id, user_id: user.id, package_id: payment.getString("package_id") },
    payment_intent_data: { metadata: { payment_id: payment.id } },
    line_items: {
      0: {
        quantity: 1,
        price_data: {
          currency: payment.getString("currency"),
          unit_amount: payment.getInt("amount_cents"),
          product_data: { name: `${credits} in credits${bonus > 0 ? ` + ${ledger.formatUsd(bonus)} bonus` : ""}` },
        },
      },
    },
  }).join("&");
  /** @type {ReturnType<typeof $http.send>} */
  let res;
  try {
    res = $http.send({
      url: `${env("STRIPE_API_BASE") || "https://api.stripe.com"}/v1/checkout/sessions`,
      method: "POST",
      body,
      headers: {
        Authorization: `Bearer ${env("STRIPE_SECRET_KEY")}`,
        "Content-Type": "application/x-www-form-urlencoded",
        "Idempotency-Key": `checkout-${payment.id}`,
      },
      timeout: 20,
    });
  } catch (err) {
    app.logger().error("Stripe checkout failed", "payment", payment.id, "error", String(err));
    throw new ApiError(502, "The payment provider could not be reached. Nothing was charged; please try again in a moment.");
  }
  const session = res.json;
  if (res.statusCode !== 200 || !session || typeof session.url !== "string") {
    app.logger().error("Stripe refused the checkout session", "payment", payment.id, "status", res.statusCode, "body", toString(res.body));
    throw new ApiError(502, "The payment provider refused the payment. Nothing was charged; please try again or contact support.");
  }
  payment.set("provider_session_id", String(session.id ?? ""));
  payment.set("checkout_url", session.url);
  app.save(payment);
  return session.url;
}

/**
 * Marks the payment paid and credits it, inside its own (nested) transaction: the
 * credits as one CREDIT ledger row carrying the provider's payment id, the bonus as a
 * second row, and the referring affiliate's commission. A payment already paid is left
 * alone, so a webhook delivered twice or twenty times credits once. A payment whose
 * amount or currency differs from what was charged is marked failed, never credited.
 * @param {CoreApp} app
 * @param {string} paymentId
 * @param {{ providerPaymentId: string, amountCents: number, currency: string, sessionId?: string }} paid
 * @returns {"credited" | "already_paid" | "mismatch"}
 */
function completePayment(app, paymentId, paid) {
  /** @type {"credited" | "already_paid" | "mismatch"} */
  let outcome = "credited";
  app.runInTransaction((txApp) => {
    const payment = txApp.findRecordById("payments", paymentId);
    if (payment.getString("status") === "paid") {
      outcome = "already_paid";
      return;
    }
    if (paid.sessionId) payment.set("provider_session_id", paid.sessionId);
    if (paid.amountCents !== payment.getInt("amount_cents") || paid.currency.toLowerCase() !== payment.getString("currency")) {
      payment.set("status", "failed");
      payment.set(
        "failure_reason",
        `Paid ${paid.amountCents} ${paid.currency} but ${payment.getInt("amount_cents")} ${payment.getString("currency")} was due`,
      );
      txApp.save(payment);
      outcome = "mismatch";
      return;
    }
    payment.set("status", "paid");
    payment.set("paid_at", new DateTime());
    payment.set("provider_payment_id", paid.providerPaymentId);
    payment.set("failure_reason", "");
    txApp.save(payment);

    const userId = payment.getString("user_id");
    const packageId = payment.getString("package_id");
    ledger.applyLedgerEntry(txApp, {
      userId,
      type: "CREDIT",
      amountCents: payment.getInt("credits_cents"),
      description: `Purchased ${ledger.formatUsd(payment.getInt("credits_cents"))} in credits (${packageId}, paid ${ledger.formatUsd(payment.getInt("amount_cents"))})`,
      stripePaymentIntentId: paid.providerPaymentId,
      reference: `payment:${payment.id}`,
    });
    const bonus = payment.getInt("bonus_cents");
    if (bonus > 0) {
      ledger.applyLedgerEntry(txApp, {
        userId,
        type: "CREDIT",
        amountCents: bonus,
        description: `Bonus credits with ${packageId}`,
        reference: `payment-bonus:${payment.id}`,
      });
    }
    require(`${__hooks}/lib/affiliate.js`).recordCommission(txApp, payment);
  });
  return outcome;
}

/**
 * Marks a pending payment failed (expired or declined checkout). Paid payments stay paid.
 * @param {CoreApp} app
 * @param {string} paymentId
 * @param {string} reason
 */
function failPayment(app, paymentId, reason) {
  app.runInTransaction((txApp) => {
    const payment = txApp.findRecordById("payments", paymentId);
    if (payment.getString("status") !== "pending") return;
    payment.set("status", "failed");
    payment.set("failure_reason", reason);
    txApp.save(payment);
  });
}

/**
 * Checks a Stripe-Signature header ("t=<unix>,v1=<hex>[,v1=...]") against the raw body:
 * HMAC-SHA256 of "<t>.<body>" with the endpoint secret, compared in constant time, and a
 * timestamp within the tolerance. Throws a 400 saying what is wrong.
 * @param {string} header
 * @param {string} rawBody
 * @param {number} [nowSeconds]
 */
function verifyStripeSignature(header, rawBody, nowSeconds = Math.floor(Date.now() / 1000)) {
  let timestamp = NaN;
  /** @type {string[]} */
  const signatures = [];
  for (const part of header.split(",")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === "t") timestamp = Number(value);
    if (name === "v1" && value) signatures.push(value);
  }
  if (!Number.isFinite(timestamp) || signatures.length === 0) {
    throw new BadRequestError("Missing or malformed Stripe-Signature header.");
  }
  const expected = $security.hs256(`${timestamp}.${rawBody}`, env("STRIPE_WEBHOOK_SECRET"));
  if (!signatures.some((s) => $security.equal(s, expected))) {
    throw new BadRequestError("Invalid Stripe signature.");
  }
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new BadRequestError("The Stripe signature timestamp is too old (or in the future); refusing a possible replay.");
  }
}

/**
 * Acts on one verified Stripe event. Returns what was done, for the log and the tests.
 * @param {CoreApp} app
 * @param {any} event
 * @returns {string}
 */
function handleStripeEvent(app, event) {
  const session = event?.data?.object;
  const type = String(event?.type ?? "");
  if (!type.startsWith("checkout.session.") || !session) return "ignored";
  const paymentId = String(session.client_reference_id || session.metadata?.payment_id || "");
  try {
    app.findRecordById("payments", paymentId);
  } catch (_) {
    app.logger().warn("Stripe event for an unknown payment", "event", event.id, "payment", paymentId);
    return "unknown_payment";
  }
  const credit = () =>
    completePayment(app, paymentId, {
      providerPaymentId: String(session.payment_intent || session.id || ""),
      amountCents: Number(session.amount_total),
      currency: String(session.currency || ""),
      sessionId: String(session.id || ""),
    });
  switch (type) {
    case "checkout.session.completed":
      // Card payments are paid now; delayed methods (bank debits) follow with async_payment_*.
      return session.payment_status === "paid" ? credit() : "awaiting_payment";
    case "checkout.session.async_payment_succeeded":
      return credit();
    case "checkout.session.async_payment_failed":
      failPayment(app, paymentId, "The payment failed at the provider.");
      return "failed";
    case "checkout.session.expired":
      failPayment(app, paymentId, "The checkout expired before it was paid.");
      return "failed";
    default:
      return "ignored";
  }
}

/**
 * What the checkout route answers: the payment, the checkout URL (Stripe) and the balance.
 * @param {CoreApp} app
 * @param {string} paymentId
 */
function checkoutResponse(app, paymentId) {
  const payment = app.findRecordById("payments", paymentId);
  const balance = ledger.balanceRecord(app, payment.getString("user_id")).getInt("balance_cents");
  return { payment, checkout_url: payment.getString("checkout_url") || null, balance_cents: balance };
}

module.exports = {
  PACKAGES,
  providerName,
  findPackage,
  createPayment,
  openStripeCheckout,
  completePayment,
  verifyStripeSignature,
  handleStripeEvent,
  checkoutResponse,
};
