// @ts-check
// Customer webhooks (issue #18), the routes of /api/v1/webhooks (pb_hooks/webhooks.pb.js;
// the contract is src/lib/api-contract/webhooks.ts): a customer's endpoints (at most
// the contract's max_endpoints), their signing secret (shown only in the answers of create and
// rotate-secret, stored sealed); their deliveries are lib/webhooks/delivery-routes.js. Changes take an optional Idempotency-Key (lib/core/changes.js) and are written to the
// activity log. Another customer's endpoint or delivery is a 404. What is sent, and when, is
// the queue's and the dispatcher's (lib/webhooks/queue.js, pocketbase/webhooks).

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/views.js")} */
const views = require(`${__hooks}/lib/core/views.js`);
/** @type {typeof import("../core/changes.js")} */
const changes = require(`${__hooks}/lib/core/changes.js`);
/** @type {typeof import("./queue.js")} */
const queue = require(`${__hooks}/lib/webhooks/queue.js`);

/** @type {typeof import("../core/facts.js")} */
const facts = require(`${__hooks}/lib/core/facts.js`);
/** The most endpoints an account may have (the contract's). */
const ENDPOINT_LIMIT = facts.facts().webhooks.max_endpoints;

/**
 * @typedef {object} WebhookView
 * @property {string} id
 * @property {string} url
 * @property {string} description
 * @property {string[]} events
 * @property {boolean} enabled
 * @property {number | null} balance_low_cents
 * @property {string} disabled_reason
 * @property {string} created
 * @property {string} updated
 */

/**
 * The events an endpoint subscribes to (its json field), known ones only.
 * @param {core.Record} record  a webhook_endpoints record
 * @returns {string[]}
 */
function eventsOf(record) {
  return require(`${__hooks}/lib/core/sql.js`)
    .textList(record.getString("events"))
    .filter((/** @type {string} */ event) => queue.isEvent(event));
}

/**
 * An endpoint as its owner sees it (never the secret).
 * @param {core.Record} record  a webhook_endpoints record
 * @returns {WebhookView}
 */
function webhookView(record) {
  const threshold = record.getInt("balance_low_cents");
  return {
    id: record.id,
    url: record.getString("url"),
    description: record.getString("description"),
    events: eventsOf(record),
    enabled: record.getBool("enabled"),
    balance_low_cents: threshold > 0 ? threshold : null,
    disabled_reason: record.getString("disabled_reason"),
    created: /** @type {string} */ (views.iso(record.getString("created"))),
    updated: /** @type {string} */ (views.iso(record.getString("updated"))),
  };
}

/**
 * What a new endpoint (`partial`: a change, only the fields sent) stores. The request kept to
 * the OpenAPI document before this hook ran (pocketbase/devapi: the fields' types, the URL's
 * and the description's lengths, known events and at least one, the threshold's range, each
 * broken field under its name); what a schema cannot say is checked here: the URL's scheme,
 * credentials and address.
 * @param {Record<string, unknown>} body
 * @param {boolean} partial
 * @returns {{ url?: string, events?: string[], description?: string, balanceLow?: number, enabled?: boolean }}
 */
function validate(body, partial) {
  /** @type {typeof import("./endpoint-url.js")} */
  const endpointUrl = require(`${__hooks}/lib/webhooks/endpoint-url.js`);
  /** @type {{ url?: string, events?: string[], description?: string, balanceLow?: number, enabled?: boolean }} */
  const out = {};
  if (body["url"] !== undefined) {
    const problem = endpointUrl.endpointUrlProblem(body["url"]);
    const code = problem === endpointUrl.MESSAGES.required ? "validation_required" : "validation_invalid_value";
    if (problem) throw new BadRequestError(problem, { url: new ValidationError(code, problem) });
    out.url = String(body["url"]).trim();
  }
  const events = body["events"];
  // Each once, in the order the issue lists them, whatever order they came in.
  if (Array.isArray(events)) out.events = queue.eventTypes().filter((event) => events.indexOf(event) >= 0);
  const description = body["description"];
  if (typeof description === "string") out.description = description.trim();
  else if (description === null || !partial) out.description = "";
  const threshold = body["balance_low_cents"];
  if (typeof threshold === "number") out.balanceLow = threshold;
  else if (threshold === null || !partial) out.balanceLow = 0;
  if (partial && typeof body["enabled"] === "boolean") out.enabled = body["enabled"];
  return out;
}

/**
 * The caller's endpoint `id`, or a 404 (also for another customer's).
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} id
 * @returns {core.Record}
 */
function ownEndpoint(app, userId, id) {
  return api.ownRecord(app, "webhook_endpoints", id, userId, "No webhook endpoint with this id is yours.");
}

/**
 * "https://example.com/hooks" cut for a sentence of the activity log.
 * @param {string} url
 */
function shortUrl(url) {
  return url.length > 120 ? `${url.slice(0, 117)}...` : url;
}

/**
 * GET /api/v1/webhooks -> {items: [Webhook]}: newest first.
 * @param {core.RequestEvent} e
 */
function listRoute(e) {
  const user = api.customer(e);
  const records = e.app.findRecordsByFilter("webhook_endpoints", "user = {:user}", "-created,-id", ENDPOINT_LIMIT * 2, 0, {
    user: user.id,
  });
  return e.json(200, { items: records.map((r) => webhookView(/** @type {core.Record} */ (r))) });
}

/**
 * POST /api/v1/webhooks {url, events, description?, balance_low_cents?} Idempotency-Key ->
 * 201 {webhook, secret}: the secret only in this answer (and its replays, kept sealed).
 * @param {core.RequestEvent} e
 */
function createRoute(e) {
  const user = api.actingCustomer(e);
  const input = validate(api.jsonBody(e), false);
  return changes.answerChange(e, { userId: user.id, route: "POST /api/v1/webhooks", input, status: 201 }, (txApp) => {
    const count = new DynamicModel({ n: 0 });
    txApp.db().newQuery("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE user = {:user}").bind({ user: user.id }).one(count);
    if (count.n >= ENDPOINT_LIMIT) {
      throw new BadRequestError(
        `You have ${ENDPOINT_LIMIT} webhook endpoints, the most an account may have: remove one you no longer use first.`,
      );
    }
    const secret = queue.newSecret();
    const record = new Record(txApp.findCollectionByNameOrId("webhook_endpoints"));
    record.load({
      user: user.id,
      url: input.url,
      description: input.description ?? "",
      events: input.events,
      secret: queue.sealSecret(secret),
      balance_low_cents: input.balanceLow ?? 0,
      enabled: true,
      disabled_reason: "",
    });
    txApp.save(record);
    /** @type {typeof import("../activity/activity.js")} */
    const activity = require(`${__hooks}/lib/activity/activity.js`);
    activity.record(
      txApp,
      e,
      user.id,
      "webhook_created",
      `Added webhook endpoint ${shortUrl(input.url ?? "")} (${(input.events ?? []).join(", ")})`,
    );
    return { webhook: webhookView(record), secret };
  });
}

/**
 * PATCH /api/v1/webhooks/{id} {url?, events?, description?, enabled?, balance_low_cents?}
 * Idempotency-Key -> Webhook. Turning it on clears disabled_reason.
 * @param {core.RequestEvent} e
 */
function updateRoute(e) {
  const user = api.actingCustomer(e);
  const id = e.request?.pathValue("id") ?? "";
  const input = validate(api.jsonBody(e), true);
  return changes.answerChange(e, { userId: user.id, route: "PATCH /api/v1/webhooks/{id}", input: { id, ...input } }, (txApp) => {
    const record = ownEndpoint(txApp, user.id, id);
    /** @type {string[]} */
    const changed = [];
    if (input.url !== undefined && input.url !== record.getString("url")) {
      record.set("url", input.url);
      changed.push(`URL ${shortUrl(input.url)}`);
    }
    if (input.events !== undefined && JSON.stringify(input.events) !== JSON.stringify(eventsOf(record))) {
      record.set("events", input.events);
      changed.push(`events ${input.events.join(", ")}`);
    }
    if (input.description !== undefined && input.description !== record.getString("description")) {
      record.set("description", input.description);
      changed.push("description");
    }
    if (input.balanceLow !== undefined && input.balanceLow !== record.getInt("balance_low_cents")) {
      record.set("balance_low_cents", input.balanceLow);
      changed.push("low-balance threshold");
    }
    if (input.enabled !== undefined && input.enabled !== record.getBool("enabled")) {
      record.set("enabled", input.enabled);
      if (input.enabled) record.set("disabled_reason", "");
      changed.push(input.enabled ? "turned on" : "turned off");
    }
    if (changed.length) {
      txApp.save(record);
      /** @type {typeof import("../activity/activity.js")} */
      const activity = require(`${__hooks}/lib/activity/activity.js`);
      activity.record(
        txApp,
        e,
        user.id,
        "webhook_updated",
        `Changed webhook endpoint ${shortUrl(record.getString("url"))}: ${changed.join("; ")}`,
      );
    }
    return webhookView(record);
  });
}

/**
 * DELETE /api/v1/webhooks/{id} Idempotency-Key -> the endpoint, deleted with its deliveries.
 * @param {core.RequestEvent} e
 */
function deleteRoute(e) {
  const user = api.actingCustomer(e);
  const id = e.request?.pathValue("id") ?? "";
  return changes.answerChange(e, { userId: user.id, route: "DELETE /api/v1/webhooks/{id}", input: { id } }, (txApp) => {
    const record = ownEndpoint(txApp, user.id, id);
    const view = webhookView(record);
    txApp.delete(record); // the deliveries' relation cascades
    /** @type {typeof import("../activity/activity.js")} */
    const activity = require(`${__hooks}/lib/activity/activity.js`);
    activity.record(txApp, e, user.id, "webhook_deleted", `Removed webhook endpoint ${shortUrl(view.url)}`);
    return view;
  });
}

/**
 * POST /api/v1/webhooks/{id}/rotate-secret Idempotency-Key -> {webhook, secret}: the new
 * secret signs every attempt from now on (the dispatcher reads it at each attempt).
 * @param {core.RequestEvent} e
 */
function rotateRoute(e) {
  const user = api.actingCustomer(e);
  const id = e.request?.pathValue("id") ?? "";
  return changes.answerChange(e, { userId: user.id, route: "POST /api/v1/webhooks/{id}/rotate-secret", input: { id } }, (txApp) => {
    const record = ownEndpoint(txApp, user.id, id);
    const secret = queue.newSecret();
    record.set("secret", queue.sealSecret(secret));
    txApp.save(record);
    /** @type {typeof import("../activity/activity.js")} */
    const activity = require(`${__hooks}/lib/activity/activity.js`);
    activity.record(
      txApp,
      e,
      user.id,
      "webhook_secret_rotated",
      `New signing secret for webhook endpoint ${shortUrl(record.getString("url"))}`,
    );
    return { webhook: webhookView(record), secret };
  });
}

module.exports = {
  webhookView,
  listRoute,
  createRoute,
  updateRoute,
  deleteRoute,
  rotateRoute,
  ownEndpoint,
};
