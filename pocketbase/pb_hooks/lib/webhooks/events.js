// @ts-check
// Webhook events from where things happen (issue #18). Each source calls one function here
// inside its own transaction, so a delivery is queued (lib/webhooks/queue.js) exactly when
// the change it reports commits, and never again on a replay:
// - purchase.completed   lib/proxies/purchase.js purchase() (POST /api/v1/proxies/purchase;
//                        renewals are not purchases): {order, proxies, balance_cents}
// - payment.succeeded    lib/money/payments.js completePayment (Stripe's webhook and the test
//                        provider): {payment_id, amount_cents, credits_cents, balance_cents}
// - proxy.expiring, proxy.expired, proxy.quota_reached: the proxies domain's events, built
//                        in lib/proxies/events.js and queued through enqueueTo here
// - balance.low          lib/webhooks/balance-low.js, from the ledger (per-endpoint thresholds)
// Proxies are the API's proxy view (lib/core/views.js) WITHOUT the password: a webhook body
// never carries credentials. Ids, cents, RFC 3339 times.

/** @typedef {import("../core/views.js").ProxyView} ProxyView */
/** @typedef {Omit<ProxyView, "password">} PublicProxy */

/**
 * A proxy view without its password.
 * @param {ProxyView} view
 * @returns {PublicProxy}
 */
function publicProxy(view) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of Object.keys(view)) {
    if (key !== "password") out[key] = /** @type {Record<string, unknown>} */ (view)[key];
  }
  return /** @type {PublicProxy} */ (out);
}

/**
 * Queues `event` with `data` for the given endpoints (already known to subscribe).
 * @param {CoreApp} txApp
 * @param {string[]} endpoints
 * @param {string} userId
 * @param {import("./queue.js").WebhookEvent} event
 * @param {Record<string, unknown>} data
 */
function enqueueTo(txApp, endpoints, userId, event, data) {
  /** @type {typeof import("./queue.js")} */
  const queue = require(`${__hooks}/lib/webhooks/queue.js`);
  const payload = queue.payloadOf(event, data);
  for (const endpoint of endpoints) {
    queue.insertDelivery(txApp, { endpoint, user: userId, event, messageId: queue.newMessageId(), payload });
  }
  return endpoints.length;
}

/**
 * purchase.completed, inside the purchase's transaction.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {{ order: ReturnType<typeof import("../core/views.js").orderView>, proxies: ProxyView[], balance_cents: number }} view  what the purchase route answers
 */
function purchaseCompleted(txApp, userId, view) {
  /** @type {typeof import("./queue.js")} */
  const queue = require(`${__hooks}/lib/webhooks/queue.js`);
  return queue.enqueue(txApp, userId, "purchase.completed", {
    order: view.order,
    proxies: view.proxies.map(publicProxy),
    balance_cents: view.balance_cents,
  });
}

/**
 * payment.succeeded, inside the transaction that credits the payment.
 * @param {CoreApp} txApp
 * @param {core.Record} payment  a payments record, just marked paid
 * @param {number} balanceCents  the balance after its credits (and bonus)
 */
function paymentSucceeded(txApp, payment, balanceCents) {
  /** @type {typeof import("./queue.js")} */
  const queue = require(`${__hooks}/lib/webhooks/queue.js`);
  return queue.enqueue(txApp, payment.getString("user_id"), "payment.succeeded", {
    payment_id: payment.id,
    amount_cents: payment.getInt("amount_cents"),
    credits_cents: payment.getInt("credits_cents") + payment.getInt("bonus_cents"),
    balance_cents: balanceCents,
  });
}

module.exports = { publicProxy, enqueueTo, purchaseCompleted, paymentSucceeded };
