// @ts-check
// The deliveries of a customer's webhook endpoint (issue #18): listed newest first with
// cursor paging (GET /api/v1/webhooks/{id}/deliveries), and one sent again (POST
// .../deliveries/{delivery}/resend). Another customer's endpoint or delivery is a 404.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/views.js")} */
const views = require(`${__hooks}/lib/core/views.js`);
/** @type {typeof import("../core/changes.js")} */
const changes = require(`${__hooks}/lib/core/changes.js`);
/** @type {typeof import("./queue.js")} */
const queue = require(`${__hooks}/lib/webhooks/queue.js`);
/** @type {typeof import("./routes.js")} */
const routes = require(`${__hooks}/lib/webhooks/routes.js`);

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
  const endpoint = routes.ownEndpoint(e.app, user.id, e.request?.pathValue("id") ?? "");
  const status = api.queryParam(e, "status"); // one of the statuses: the document says so
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
      const endpoint = routes.ownEndpoint(txApp, user.id, id);
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

module.exports = { deliveriesRoute, resendRoute };
