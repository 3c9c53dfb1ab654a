// @ts-check
// Stripe's side of buying credits: the Checkout Session a pending payment opens, and the
// webhook, the only way a Stripe payment credits a balance (or, with refunds and
// chargebacks, takes credits back: lib/money/reversals.js).

/** @type {typeof import("./ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);
/** @type {typeof import("./payments.js")} */
const payments = require(`${__hooks}/lib/money/payments.js`);

const env = payments.env;
/** Webhook timestamps older (or newer) than this are refused, against replays of old events. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * POST /api/v1/payments/stripe/webhook  (Stripe calls this; the Stripe-Signature header is
 * the only credential). Bad signatures and stale timestamps get a 400 and change nothing.
 * Events: checkout.session.completed / .async_payment_succeeded / .async_payment_failed /
 * .expired credit or fail a payment; charge.refunded, charge.dispute.created and
 * charge.dispute.closed reverse (or, for a dispute won, restore) its credits and commission.
 * Each is idempotent: a replay, or a late event whose step was done, moves nothing.
 * @param {core.RequestEvent} e
 */
function webhook(e) {
  if (payments.providerName() !== "stripe") throw new NotFoundError("Stripe payments are not configured on this shop.");
  const raw = toString(e.request?.body, 1024 * 1024);
  verifyStripeSignature(e.request?.header.get("Stripe-Signature") ?? "", raw);
  /** @type {any} */
  let event;
  try {
    event = JSON.parse(raw);
  } catch (_) {
    throw new BadRequestError("The webhook body is not JSON.");
  }
  return e.json(200, { received: true, outcome: handleStripeEvent(e.app, event) });
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
  const { appUrl } = require(`${__hooks}/lib/core/mail.js`);
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
  if (!session) return "ignored";
  if (type === "charge.refunded" || type === "charge.dispute.created" || type === "charge.dispute.closed") {
    return require(`${__hooks}/lib/money/reversals.js`).reversePayment(app, type, session);
  }
  if (!type.startsWith("checkout.session.")) return "ignored";
  const paymentId = String(session.client_reference_id || session.metadata?.payment_id || "");
  try {
    app.findRecordById("payments", paymentId);
  } catch (_) {
    app.logger().warn("Stripe event for an unknown payment", "event", event.id, "payment", paymentId);
    return "unknown_payment";
  }
  const credit = () => {
    const outcome = payments.completePayment(app, paymentId, {
      providerPaymentId: String(session.payment_intent || session.id || ""),
      amountCents: Number(session.amount_total),
      currency: String(session.currency || ""),
      sessionId: String(session.id || ""),
    });
    if (outcome === "credited") {
      storeCardFingerprint(app, paymentId);
      // Once per payment: a webhook delivered again finds it paid ("already_paid") and mails nobody.
      require(`${__hooks}/lib/money/mails.js`).creditReceipt(app, paymentId);
    }
    return outcome;
  };
  switch (type) {
    case "checkout.session.completed":
      // Card payments are paid now; delayed methods (bank debits) follow with async_payment_*.
      return session.payment_status === "paid" ? credit() : "awaiting_payment";
    case "checkout.session.async_payment_succeeded":
      return credit();
    case "checkout.session.async_payment_failed":
      payments.failPayment(app, paymentId, "The payment failed at the provider.");
      return "failed";
    case "checkout.session.expired":
      payments.failPayment(app, paymentId, "The checkout expired before it was paid.");
      return "failed";
    default:
      return "ignored";
  }
}

/**
 * The card's fingerprint from Stripe, stored on a credited payment that has none yet
 * (after the credit, outside its transaction: a network call). A failure is logged and
 * changes nothing else.
 * @param {CoreApp} app
 * @param {string} paymentId
 */
function storeCardFingerprint(app, paymentId) {
  try {
    const payment = app.findRecordById("payments", paymentId);
    const paymentIntent = payment.getString("provider_payment_id");
    if (payment.getString("card_fingerprint") || !paymentIntent.startsWith("pi_")) return;
    const res = $http.send({
      url: `${env("STRIPE_API_BASE") || "https://api.stripe.com"}/v1/payment_intents/${encodeURIComponent(paymentIntent)}?expand[]=latest_charge`,
      method: "GET",
      headers: { Authorization: `Bearer ${env("STRIPE_SECRET_KEY")}` },
      timeout: 10,
    });
    const fingerprint = res.statusCode === 200 ? res.json?.latest_charge?.payment_method_details?.card?.fingerprint : undefined;
    if (typeof fingerprint !== "string" || !fingerprint) {
      app.logger().warn("Stripe gave no card fingerprint", "payment", paymentId, "status", res.statusCode);
      return;
    }
    // A raw update: the payment row is not re-validated or re-broadcast for this one field.
    app
      .db()
      .newQuery("UPDATE payments SET card_fingerprint = {:fingerprint} WHERE id = {:id} AND card_fingerprint = ''")
      .bind({ fingerprint: fingerprint.slice(0, 255), id: paymentId })
      .execute();
  } catch (err) {
    app.logger().error("Reading the card fingerprint from Stripe failed", "payment", paymentId, "error", String(err));
  }
}

module.exports = { webhook, openStripeCheckout };
