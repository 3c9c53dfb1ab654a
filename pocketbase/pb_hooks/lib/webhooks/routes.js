// @ts-check
// Customer webhooks (issue #18), the routes of /api/v1/webhooks (pb_hooks/webhooks.pb.js;
// the contract is src/lib/api-contract/webhooks.ts): a customer's endpoints (at most the
// contract's max_endpoints), their signing secret (shown only in the answers of create and
// rotate-secret, stored sealed), their deliveries (newest first, cursor paging) and resending
// one. Changes take an optional Idempotency-Key (lib/core/changes.js) and are written to the
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
/** The contract's limits: endpoints an account may have, a description's length, balance.low's range. */
const LIMITS = facts.facts().webhooks;
const DELIVERY_STATUSES = ["pending", "delivering", "succeeded", "failed"];

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
 * A delivery as the routes answer it: queue.deliveryView with RFC 3339 times, null for none.
 * @param {{ id: string, event: string, status: string, attempts: number, last_status_code: number, last_response_ms: number, last_error: string, created: string, delivered_at: string, next_attempt_at: string }} row
 */
function deliveryOut(row) {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_response_ms: row.last_response_ms,
    last_error: row.last_error,
    created: /** @type {string} */ (views.iso(row.created)),
    delivered_at: views.iso(row.delivered_at),
    next_attempt_at: views.iso(row.next_attempt_at),
  };
}

/**
 * Checks the fields of a new endpoint (`partial`: a change, where only the fields sent are
 * checked); every broken rule under its field in one 400.
 * @param {Record<string, unknown>} body
 * @param {boolean} partial
 * @returns {{ url?: string, events?: string[], description?: string, balanceLow?: number, enabled?: boolean }}
 */
function validate(body, partial) {
  /** @type {typeof import("./endpoint-url.js")} */
  const endpointUrl = require(`${__hooks}/lib/webhooks/endpoint-url.js`);
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  /** @type {{ url?: string, events?: string[], description?: string, balanceLow?: number, enabled?: boolean }} */
  const out = {};
  /** @param {string} name */
  const given = (name) => !partial || body[name] !== undefined;

  if (given("url")) {
    const problem = endpointUrl.endpointUrlProblem(body["url"]);
    if (problem) {
      const code =
        problem === endpointUrl.MESSAGES.required
          ? "validation_required"
          : problem === endpointUrl.MESSAGES.tooLong
            ? "validation_max_length"
            : "validation_invalid_value";
      errors["url"] = new ValidationError(code, problem);
    } else out.url = /** @type {string} */ (body["url"]).trim();
  }

  if (given("events")) {
    const eventsIn = body["events"];
    if (!Array.isArray(eventsIn) || eventsIn.length === 0) {
      errors["events"] = new ValidationError("validation_required", "Choose at least one event");
    } else {
      /** @type {string[]} */
      const events = [];
      for (const event of eventsIn) {
        if (!queue.isEvent(event)) {
          errors["events"] = new ValidationError("validation_invalid_value", `Events are ${queue.eventTypes().join(", ")}`);
          break;
        }
        if (events.indexOf(event) < 0) events.push(event);
      }
      // In the order the issue lists them, whatever order they came in.
      out.events = queue.eventTypes().filter((event) => events.indexOf(event) >= 0);
    }
  }

  const descriptionIn = body["description"];
  if (descriptionIn !== undefined && descriptionIn !== null) {
    if (typeof descriptionIn !== "string") {
      errors["description"] = new ValidationError("validation_invalid_value", "The description must be text");
    } else if (api.chars(descriptionIn.trim()) > LIMITS.max_description_length) {
      errors["description"] = new ValidationError(
        "validation_max_length",
        `The description must be at most ${LIMITS.max_description_length} characters`,
      );
    } else out.description = descriptionIn.trim();
  } else if (descriptionIn === null || !partial) out.description = "";

  const thresholdIn = body["balance_low_cents"];
  if (thresholdIn === null) out.balanceLow = 0;
  else if (thresholdIn !== undefined) {
    const cents = api.wholeNumber(thresholdIn);
    if (!(cents >= LIMITS.balance_low_cents.min && cents <= LIMITS.balance_low_cents.max)) {
      errors["balance_low_cents"] = new ValidationError(
        "validation_invalid_number",
        "The low-balance threshold must be a whole number of cents from 1 to 100,000,000 (or none)",
      );
    } else out.balanceLow = cents;
  } else if (!partial) out.balanceLow = 0;

  if (partial && body["enabled"] !== undefined) {
    if (typeof body["enabled"] !== "boolean")
      errors["enabled"] = new ValidationError("validation_invalid_value", "enabled must be true or false");
    else out.enabled = body["enabled"];
  }

  const fields = Object.keys(errors);
  if (fields.length) throw new BadRequestError(errors[/** @type {string} */ (fields[0])]?.message() ?? "Invalid endpoint", errors);
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
  /** @type {core.Record | null} */
  let record = null;
  try {
    record = app.findRecordById("webhook_endpoints", id);
  } catch (_) {
    record = null;
  }
  if (!record || record.getString("user") !== userId) throw new NotFoundError("No webhook endpoint with this id is yours.");
  return record;
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
  const records = e.app.findRecordsByFilter("webhook_endpoints", "user = {:user}", "-created,-id", LIMITS.max_endpoints * 2, 0, {
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
    if (count.n >= LIMITS.max_endpoints) {
      throw new BadRequestError(
        `You have ${LIMITS.max_endpoints} webhook endpoints, the most an account may have: remove one you no longer use first.`,
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

const DELIVERY_COLUMNS =
  "id, event, status, attempts, last_status_code, last_response_ms, last_error, created, delivered_at, next_attempt_at";

/** An empty row list of DELIVERY_COLUMNS. */
function deliveryRows() {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  return sql.rowsLike({
    id: "",
    event: "",
    status: "",
    attempts: 0,
    last_status_code: 0,
    last_response_ms: 0,
    last_error: "",
    created: "",
    delivered_at: "",
    next_attempt_at: "",
  });
}

/**
 * GET /api/v1/webhooks/{id}/deliveries?status&cursor&limit -> {items: [Delivery], next_cursor}.
 * @param {core.RequestEvent} e
 */
function deliveriesRoute(e) {
  const user = api.customer(e);
  /** @type {typeof import("../core/paging.js")} */
  const paging = require(`${__hooks}/lib/core/paging.js`);
  const endpoint = ownEndpoint(e.app, user.id, e.request?.pathValue("id") ?? "");
  const status = api.queryChoice(e, "status", DELIVERY_STATUSES);
  const { limit, after } = paging.pageParams(e);
  const rows = deliveryRows();
  e.app
    .db()
    .newQuery(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint = {:endpoint} AND user = {:user}${status ? " AND status = {:status}" : ""}${paging.afterSql(after)}
       ORDER BY created DESC, id DESC LIMIT {:limit}`,
    )
    .bind({ endpoint: endpoint.id, user: user.id, status, limit: limit + 1, afterCreated: after?.created ?? "", afterId: after?.id ?? "" })
    .all(/** @type {any} */ (rows));
  return e.json(200, paging.pageOf(rows, limit, deliveryOut));
}

/**
 * POST /api/v1/webhooks/{id}/deliveries/{delivery}/resend Idempotency-Key -> the new
 * delivery (same payload and webhook-id, due at once). A turned-off endpoint is a 409.
 * @param {core.RequestEvent} e
 */
function resendRoute(e) {
  const user = api.actingCustomer(e);
  const id = e.request?.pathValue("id") ?? "";
  const deliveryId = e.request?.pathValue("delivery") ?? "";
  return changes.answerChange(
    e,
    { userId: user.id, route: "POST /api/v1/webhooks/{id}/deliveries/{delivery}/resend", input: { id, delivery: deliveryId } },
    (txApp) => {
      const endpoint = ownEndpoint(txApp, user.id, id);
      /** @type {core.Record | null} */
      let delivery = null;
      try {
        delivery = txApp.findRecordById("webhook_deliveries", deliveryId);
      } catch (_) {
        delivery = null;
      }
      if (!delivery || delivery.getString("endpoint") !== endpoint.id || delivery.getString("user") !== user.id) {
        throw new NotFoundError("No delivery with this id was made to this endpoint of yours.");
      }
      if (!endpoint.getBool("enabled")) {
        throw new ApiError(409, "This endpoint is turned off: turn it on to resend its deliveries.");
      }
      return deliveryOut(queue.deliveryView(queue.resend(txApp, delivery)));
    },
  );
}

module.exports = {
  webhookView,
  listRoute,
  createRoute,
  updateRoute,
  deleteRoute,
  rotateRoute,
  deliveriesRoute,
  resendRoute,
};
