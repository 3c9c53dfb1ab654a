// @ts-check
// Buying credits. One provider interface, two providers:
// - "stripe" when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set: a Checkout Session
//   is created on the server at the server's price, and the balance is credited only by a
//   verified webhook (verifyStripeSignature);
// - "test" only when PAYMENTS_TEST_MODE=true and Stripe is not configured (`npm start` on a
//   loopback host, the test harnesses): no money moves, the payment completes at once, and
//   it never earns commission;
// - "none" otherwise: buying credits is refused (503), nothing is charged.
// Both providers credit through completePayment, once per payment however often it is called.
// Stripe refunds and chargebacks (charge.refunded, charge.dispute.*) reverse what the
// payment credited with DEBIT ledger rows that may leave a debt (reversePayment below).

/** @type {typeof import("./ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);

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

/** @returns {"stripe" | "test" | "none"} */
function providerName() {
  if (env("STRIPE_SECRET_KEY") && env("STRIPE_WEBHOOK_SECRET")) return "stripe";
  return env("PAYMENTS_TEST_MODE") === "true" ? "test" : "none";
}

/** What the checkout answers (503) when no payment provider is set up. */
const NOT_SET_UP_MESSAGE =
  "Buying credits is not set up on this shop yet, so nothing was charged. Please try again later or contact support.";

/**
 * Why the Stripe settings cannot work (one of the two variables without the other), or "".
 * PocketBase refuses to start with this (payments.pb.js).
 */
function stripeConfigProblem() {
  const key = env("STRIPE_SECRET_KEY");
  const secret = env("STRIPE_WEBHOOK_SECRET");
  if (key && !secret) {
    return "STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is missing: set both to take payments with Stripe, or neither.";
  }
  if (secret && !key) {
    return "STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is missing: set both to take payments with Stripe, or neither.";
  }
  return "";
}

/** Throws the 503 when no payment provider is set up. */
function assertCanSell() {
  if (providerName() === "none") throw new ApiError(503, NOT_SET_UP_MESSAGE);
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
  assertCanSell();
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
    // Paid, and perhaps refunded or disputed since: credited once, whatever comes later.
    if (!["pending", "failed"].includes(payment.getString("status"))) {
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
    require(`${__hooks}/lib/affiliate/affiliate.js`).recordCommission(txApp, payment);
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
  if (!session) return "ignored";
  if (type === "charge.refunded" || type === "charge.dispute.created" || type === "charge.dispute.closed") {
    return reversePayment(app, type, session);
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
    const outcome = completePayment(app, paymentId, {
      providerPaymentId: String(session.payment_intent || session.id || ""),
      amountCents: Number(session.amount_total),
      currency: String(session.currency || ""),
      sessionId: String(session.id || ""),
    });
    if (outcome === "credited") storeCardFingerprint(app, paymentId);
    return outcome;
  };
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

// ---- Refunds and chargebacks ---------------------------------------------------------
// What a payment credited (credits + bonus) is reversed in the share of the money taken
// back: refunds from the charge's cumulative amount_refunded, a dispute by its amount.
// Each step is one ledger row with a reference of its own, under "reversal:<payment id>:":
//   refund:<cumulative cents refunded>   DEBIT
//   dispute:<dispute id>                 DEBIT (dispute opened, or lost before we saw it open)
//   dispute-won:<dispute id>             CREDIT of what that dispute reversed
// so a replayed or late event finds its step done and moves nothing. The DEBIT rows may
// leave the balance below zero: a debt that blocks purchases until credits are bought.

/** The statuses of a payment whose credits were booked. */
const CREDITED_STATUSES = ["paid", "partially_refunded", "refunded", "disputed"];

/**
 * Sum of the ledger rows whose reference starts with `prefix`, for one user.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {string} prefix  no LIKE wildcards in it (ids and fixed words)
 */
function ledgerSum(txApp, userId, prefix) {
  const row = new DynamicModel({ cents: 0 });
  txApp
    .db()
    .newQuery("SELECT COALESCE(SUM(amount_cents), 0) AS cents FROM transactions WHERE user_id = {:userId} AND reference LIKE {:pattern}")
    .bind({ userId, pattern: `${prefix}%` })
    .one(row);
  return row.cents;
}

/**
 * The money of a payment taken back now: refunds plus an open or lost dispute, at most
 * what was paid.
 * @param {core.Record} payment
 */
function moneyTakenBack(payment) {
  const disputeStatus = payment.getString("dispute_status");
  const disputed = disputeStatus === "open" || disputeStatus === "lost" ? payment.getInt("disputed_cents") : 0;
  return Math.min(payment.getInt("amount_cents"), payment.getInt("refunded_cents") + disputed);
}

/**
 * The status that says what happened to a credited payment.
 * @param {core.Record} payment
 */
function reversalStatus(payment) {
  const disputeStatus = payment.getString("dispute_status");
  if (disputeStatus === "open" || disputeStatus === "lost") return "disputed";
  const refunded = payment.getInt("refunded_cents");
  if (refunded >= payment.getInt("amount_cents")) return "refunded";
  return refunded > 0 ? "partially_refunded" : "paid";
}

/**
 * Books one reversal step (a DEBIT of at most what is left to reverse), once per reference.
 * Returns the cents reversed (0 when the step was done before or nothing is left).
 * @param {CoreApp} txApp
 * @param {core.Record} payment
 * @param {{ reference: string, targetCents: number, description: string }} step
 *   targetCents: the credits this step should take back before the cap
 */
function debitStep(txApp, payment, step) {
  const userId = payment.getString("user_id");
  if (ledger.hasReference(txApp, userId, step.reference)) return 0;
  const credited = payment.getInt("credits_cents") + payment.getInt("bonus_cents");
  const reversedSoFar = -ledgerSum(txApp, userId, `reversal:${payment.id}:`);
  const cents = Math.min(step.targetCents, credited - reversedSoFar);
  if (cents < 1) return 0;
  ledger.applyLedgerEntry(
    txApp,
    {
      userId,
      type: "DEBIT",
      amountCents: -cents,
      description: `${step.description} (payment ${payment.id.slice(0, 8).toUpperCase()}): ${ledger.formatUsd(cents)} in credits reversed`,
      // No stripePaymentIntentId: that column is unique, held by the payment's CREDIT row.
      reference: step.reference,
    },
    undefined,
    { allowDebt: true },
  );
  return cents;
}

/**
 * The credits that `moneyCents` of the payment bought (credits + bonus in the same share).
 * @param {core.Record} payment
 * @param {number} moneyCents
 */
function creditsShare(payment, moneyCents) {
  const credited = payment.getInt("credits_cents") + payment.getInt("bonus_cents");
  const amount = payment.getInt("amount_cents");
  return Math.min(credited, Math.round((credited * Math.min(moneyCents, amount)) / amount));
}

/**
 * Acts on one charge.refunded / charge.dispute.* event for the payment with this payment
 * intent, in one transaction: payment fields, ledger step, commission. Idempotent.
 * @param {CoreApp} app
 * @param {string} type
 * @param {any} object  the charge or the dispute
 * @returns {string} the outcome
 */
function reversePayment(app, type, object) {
  const paymentIntent = String(object?.payment_intent || "");
  if (!paymentIntent) return "unknown_payment";
  /** @type {core.Record} */
  let found;
  try {
    found = app.findFirstRecordByFilter("payments", "provider = 'stripe' && provider_payment_id = {:pi}", { pi: paymentIntent });
  } catch (_) {
    app.logger().warn("Stripe charge event for an unknown payment", "payment_intent", paymentIntent, "type", type);
    return "unknown_payment";
  }
  let outcome = "ignored";
  app.runInTransaction((txApp) => {
    const payment = txApp.findRecordById("payments", found.id);
    if (!CREDITED_STATUSES.includes(payment.getString("status"))) {
      outcome = "not_paid";
      return;
    }
    const fingerprint = String(object?.payment_method_details?.card?.fingerprint || "");
    if (fingerprint && !payment.getString("card_fingerprint")) payment.set("card_fingerprint", fingerprint.slice(0, 255));
    const amount = payment.getInt("amount_cents");
    let reversed = 0;
    let restored = 0;
    let step = type;

    if (type === "charge.refunded") {
      const refundedNow = Math.min(amount, Math.max(0, Math.floor(Number(object.amount_refunded) || 0)));
      if (refundedNow > payment.getInt("refunded_cents")) payment.set("refunded_cents", refundedNow);
      const refundedTotal = payment.getInt("refunded_cents");
      step = `refund:${refundedTotal}`;
      const alreadyByRefunds = -ledgerSum(txApp, payment.getString("user_id"), `reversal:${payment.id}:refund:`);
      reversed = debitStep(txApp, payment, {
        reference: `reversal:${payment.id}:refund:${refundedTotal}`,
        targetCents: creditsShare(payment, refundedTotal) - alreadyByRefunds,
        description: refundedTotal >= amount ? "Payment refunded by Stripe" : "Payment partly refunded by Stripe",
      });
      outcome = reversed > 0 ? "reversed" : "already_reversed";
    } else {
      const disputeId = String(object?.id || "");
      const disputed = Math.min(amount, Math.max(0, Math.floor(Number(object?.amount) || 0)));
      const status = String(object?.status || "");
      const current = payment.getString("dispute_status");
      const disputeReference = `reversal:${payment.id}:dispute:${disputeId}`;
      step = `dispute:${disputeId}`;
      const takeBack = () =>
        debitStep(txApp, payment, {
          reference: disputeReference,
          targetCents: creditsShare(payment, disputed),
          description: "Payment disputed (chargeback)",
        });
      if (type === "charge.dispute.created") {
        if (current === "won" || current === "lost") {
          outcome = "already_closed"; // closed arrived first; it decided
        } else if (status.startsWith("warning_")) {
          outcome = "inquiry"; // an inquiry takes no money
        } else {
          payment.set("dispute_status", "open");
          payment.set("disputed_cents", disputed);
          reversed = takeBack();
          outcome = reversed > 0 ? "reversed" : "already_reversed";
        }
      } else if (type === "charge.dispute.closed" && status === "lost") {
        if (current !== "lost") {
          payment.set("dispute_status", "lost");
          payment.set("disputed_cents", disputed);
        }
        reversed = takeBack(); // nothing when the dispute's opening already did it
        outcome = current === "lost" ? "already_closed" : "lost";
      } else if (type === "charge.dispute.closed" && (status === "won" || status === "warning_closed")) {
        if (current === "won") {
          outcome = "already_closed";
        } else {
          payment.set("dispute_status", "won");
          const userId = payment.getString("user_id");
          const wonReference = `reversal:${payment.id}:dispute-won:${disputeId}`;
          step = `dispute-won:${disputeId}`;
          const took = -ledgerSum(txApp, userId, disputeReference);
          if (took > 0 && !ledger.hasReference(txApp, userId, wonReference)) {
            ledger.applyLedgerEntry(txApp, {
              userId,
              type: "CREDIT",
              amountCents: took,
              description: `Dispute won (payment ${payment.id.slice(0, 8).toUpperCase()}): ${ledger.formatUsd(took)} in credits restored`,
              reference: wonReference,
            });
            restored = took;
          }
          outcome = "won";
        }
      } else {
        outcome = "ignored";
      }
    }

    payment.set("status", reversalStatus(payment));
    if (reversed > 0 && !payment.getString("reversed_at")) payment.set("reversed_at", new DateTime());
    txApp.save(payment);
    /** @type {typeof import("../affiliate/affiliate.js")} */
    const affiliate = require(`${__hooks}/lib/affiliate/affiliate.js`);
    affiliate.reverseCommission(txApp, payment, moneyTakenBack(payment), step);
    if (restored > 0) outcome = "restored";
  });
  return outcome;
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
  NOT_SET_UP_MESSAGE,
  providerName,
  stripeConfigProblem,
  assertCanSell,
  findPackage,
  createPayment,
  openStripeCheckout,
  completePayment,
  verifyStripeSignature,
  handleStripeEvent,
  reversePayment,
  storeCardFingerprint,
  checkoutResponse,
};
