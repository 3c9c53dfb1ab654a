// @ts-check
// Customer webhooks (issue #18), the JS side of the durable queue. An event source (a
// purchase, an expiry, a payment ...) calls `enqueue(txApp, userId, event, data)` inside its
// own transaction: one `pending` row of `webhook_deliveries` per enabled endpoint of that
// customer subscribed to the event, due at once, so the delivery exists exactly when the
// change it reports is committed. The Go dispatcher (pocketbase/webhooks) polls the table
// every 200 ms, signs each body per Standard Webhooks (webhook-id, webhook-timestamp,
// webhook-signature) with the endpoint's secret and sends it, retrying with backoff for 24
// hours; every attempt's outcome is written back to the row.
//
// Message ids: a first send gets a fresh "msg_..." id. A resend is a NEW row with the SAME
// payload and the SAME webhook-id: Standard Webhooks says the id "will be the same when the
// same webhook is being resent", so a receiver that de-duplicates on it stays idempotent
// (the signature still changes, since webhook-timestamp is the time of each attempt).

/** @typedef {string} WebhookEvent  one of the contract's events (eventTypes) */

/** @type {typeof import("../core/facts.js")} */
const facts = require(`${__hooks}/lib/core/facts.js`);

/** The events a customer can subscribe to, in the contract's order (lib/facts.json). */
function eventTypes() {
  return facts.facts().webhooks.events.map((event) => event.type);
}

/** A secret's prefix (Standard Webhooks), followed by the base64 of 24 random bytes. */
const SECRET_PREFIX = "whsec_";
const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * @typedef {object} DeliveryView
 * @property {string} id
 * @property {string} event
 * @property {string} status  pending | delivering | succeeded | failed
 * @property {number} attempts
 * @property {number} last_status_code  0 when no answer came (refused, timeout, TLS ...)
 * @property {number} last_response_ms
 * @property {string} last_error
 * @property {string} created
 * @property {string} delivered_at  "" until it succeeds
 * @property {string} next_attempt_at  "" when no attempt is planned
 */

/**
 * True for one of the contract's events.
 * @param {unknown} event
 * @returns {event is WebhookEvent}
 */
function isEvent(event) {
  return typeof event === "string" && eventTypes().indexOf(event) >= 0;
}

/**
 * A new signing secret: "whsec_" + base64 of 24 random bytes (32 characters of the base64
 * alphabet are exactly 24 random bytes, no padding). Shown once; store sealSecret(secret).
 */
function newSecret() {
  return SECRET_PREFIX + $security.randomStringWithAlphabet(32, BASE64_ALPHABET);
}

/**
 * The stored form of a secret (webhook_endpoints.secret): sealed like proxy passwords under
 * SHOP_CREDENTIALS_KEY, opened by the dispatcher (Go gateway.OpenSealed).
 * @param {string} secret
 */
function sealSecret(secret) {
  /** @type {typeof import("../core/sealing.js")} */
  const sealing = require(`${__hooks}/lib/core/sealing.js`);
  return sealing.sealPassword(secret);
}

/** A new Standard Webhooks message id. */
function newMessageId() {
  return "msg_" + $security.randomStringWithAlphabet(24, ID_ALPHABET);
}

/**
 * The exact body sent: {"type", "timestamp" (ISO 8601, the event's time), "data"}.
 * @param {WebhookEvent} event
 * @param {Record<string, unknown>} data
 * @param {number} [nowMs]
 */
function payloadOf(event, data, nowMs = Date.now()) {
  return JSON.stringify({ type: event, timestamp: new Date(nowMs).toISOString(), data });
}

/**
 * The enabled endpoints of `userId` subscribed to `event` (one query on the user index).
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} event
 * @returns {string[]} their ids
 */
function subscribedEndpoints(app, userId, event) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const rows = sql.rowsLike({ id: "", events: "" });
  app
    .db()
    .newQuery("SELECT id, events FROM webhook_endpoints WHERE user = {:user} AND enabled = TRUE")
    .bind({ user: userId })
    .all(/** @type {any} */ (rows));
  /** @type {string[]} */
  const ids = [];
  for (const row of rows) {
    /** @type {unknown} */
    let events = null;
    try {
      events = JSON.parse(row.events || "null");
    } catch (_) {
      events = null;
    }
    if (Array.isArray(events) && events.indexOf(event) >= 0) ids.push(row.id);
  }
  return ids;
}

/**
 * Inserts one due, pending delivery.
 * @param {CoreApp} app
 * @param {{endpoint: string, user: string, event: string, messageId: string, payload: string}} row
 * @returns {string} the new row's id
 */
function insertDelivery(app, row) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const id = sql.newId();
  const now = sql.dbDate();
  app
    .db()
    .newQuery(
      `INSERT INTO webhook_deliveries (id, endpoint, user, event, message_id, payload, status, attempts, next_attempt_at, created, updated)
       VALUES ({:id}, {:endpoint}, {:user}, {:event}, {:message}, {:payload}, 'pending', 0, {:now}, {:now}, {:now})`,
    )
    .bind({ id, endpoint: row.endpoint, user: row.user, event: row.event, message: row.messageId, payload: row.payload, now })
    .execute();
  return id;
}

/**
 * Queues `event` for every enabled endpoint of `userId` that subscribes to it, inside the
 * transaction `app` belongs to (pass the caller's txApp): the rows commit or roll back with
 * the change they report. Cheap when the customer has no endpoint (one indexed query).
 * @param {CoreApp} app
 * @param {string} userId
 * @param {WebhookEvent} event
 * @param {Record<string, unknown>} data  the event's `data` object (JSON-serialisable)
 * @returns {number} how many deliveries were queued
 */
function enqueue(app, userId, event, data) {
  if (!isEvent(event)) throw new Error(`Unknown webhook event "${String(event)}".`);
  if (!userId) return 0;
  const endpoints = subscribedEndpoints(app, userId, event);
  if (endpoints.length === 0) return 0;
  const payload = payloadOf(event, data);
  for (const endpoint of endpoints) {
    insertDelivery(app, { endpoint, user: userId, event, messageId: newMessageId(), payload });
  }
  return endpoints.length;
}

/**
 * Sends a delivery again: a NEW pending row, due at once, with the same endpoint, event,
 * payload bytes and webhook-id (see the top of this file). Answers the new row.
 * @param {CoreApp} app
 * @param {core.Record} delivery  a webhook_deliveries record
 * @returns {core.Record}
 */
function resend(app, delivery) {
  const id = insertDelivery(app, {
    endpoint: delivery.getString("endpoint"),
    user: delivery.getString("user"),
    event: delivery.getString("event"),
    messageId: delivery.getString("message_id"),
    payload: delivery.getString("payload"),
  });
  return app.findRecordById("webhook_deliveries", id);
}

/**
 * What the routes answer for a delivery (the payload is left out: it can be large).
 * @param {core.Record} record  a webhook_deliveries record
 * @returns {DeliveryView}
 */
function deliveryView(record) {
  return {
    id: record.id,
    event: record.getString("event"),
    status: record.getString("status"),
    attempts: record.getInt("attempts"),
    last_status_code: record.getInt("last_status_code"),
    last_response_ms: record.getInt("last_response_ms"),
    last_error: record.getString("last_error"),
    created: record.getString("created"),
    delivered_at: record.getString("delivered_at"),
    next_attempt_at: record.getString("next_attempt_at"),
  };
}

module.exports = {
  eventTypes,
  isEvent,
  newSecret,
  sealSecret,
  newMessageId,
  payloadOf,
  subscribedEndpoints,
  insertDelivery,
  enqueue,
  resend,
  deliveryView,
};
