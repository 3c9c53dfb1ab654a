// @ts-check
// A customer's replacement of a proxy's exit, and the refund of a proxy whose exit is down
// (issue #28 items 1 and 2):
// - GET /api/v1/proxies/{id}/replacement: a preview, no charge: the type and place the new
//   exit would have, whether one is in stock, and the free replacements left this term (the
//   plan of the proxy's type sets replacements_per_term; DEFAULT_REPLACEMENTS without one).
// - POST /api/v1/proxies/{id}/replace (Idempotency-Key): swaps the exit with a stock proxy of
//   the same type and place (lib/proxies/upstream-health.js swapExits): username, password,
//   term and usage stay. A replacement of an exit that is down does not count.
// - POST /api/v1/proxies/{id}/refund (Idempotency-Key): only while exit_down_at is set: the
//   days left of what the proxy's latest order paid come back as one REFUND ledger row
//   (reference exit-refund:<id>:<term>, once), and the proxy leaves the customer (off sale
//   with its dead exit until it answers again).

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/** @returns {typeof import("./upstream-health.js")} */
const health = () => require(`${__hooks}/lib/proxies/upstream-health.js`);

/** Free replacements per term of a type sold without a plan (at its built-in price). */
const DEFAULT_REPLACEMENTS = 1;

/**
 * The free replacements per term of `type`: its plan's (the plan purchases price by).
 * @param {CoreApp} app
 * @param {string} type
 */
function replacementsPerTerm(app, type) {
  const rows = sql.rowsLike({ n: 0 });
  app
    .db()
    .newQuery(
      `SELECT replacements_per_term AS n FROM pricing_plans WHERE active = TRUE AND price_cents > 0 AND type = {:type}
       ORDER BY price_cents, created, id LIMIT 1`,
    )
    .bind({ type })
    .all(rows);
  return rows[0] ? rows[0].n : DEFAULT_REPLACEMENTS;
}

/**
 * The user's proxy `id` (a 404 otherwise) with what a replacement needs.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} id
 */
function ownedRow(app, userId, id) {
  const rows = health().proxyRowsWhere(app, "id = {:id} AND assigned_to_user_id = {:userId}", { id, userId });
  const row = rows[0];
  if (!row || row.status !== "ASSIGNED") {
    if (row) throw new BadRequestError("Only active proxies can be replaced or refunded; renew this proxy first.");
    throw new NotFoundError("No proxy with this id is assigned to you.");
  }
  return row;
}

/**
 * What a replacement of the proxy would be (no change, no charge).
 * @param {CoreApp} app
 * @param {ReturnType<typeof ownedRow>} row
 */
function previewOf(app, row) {
  const perTerm = replacementsPerTerm(app, row.type);
  const used = row.replacements_for === row.expires_at ? row.replacements_used : 0;
  const free = !!row.exit_down_at;
  return {
    proxy_id: row.id,
    type: row.type,
    country: row.country,
    state: row.state,
    city: row.city,
    in_stock: !!health().stockFor(app, row),
    replacements_per_term: perTerm,
    replacements_used: used,
    replacements_left: Math.max(0, perTerm - used),
    counts: !free,
    charge_cents: 0,
  };
}

/**
 * GET /api/v1/proxies/{id}/replacement -> the preview.
 * @param {core.RequestEvent} e
 */
function previewRoute(e) {
  const user = api.customer(e);
  return e.json(200, previewOf(e.app, ownedRow(e.app, user.id, e.request?.pathValue("id") ?? "")));
}

/**
 * A customer's keyed change of one of their proxies (POST /api/v1/proxies/{id}/`action`):
 * the Idempotency-Key's answer, or `work` on the proxy row inside one transaction.
 * @template T
 * @param {core.RequestEvent} e
 * @param {string} action
 * @param {(txApp: CoreApp, row: ReturnType<typeof ownedRow>, user: core.Record) => T} work
 */
function ownedProxyChange(e, action, work) {
  const user = api.actingCustomer(e);
  api.idempotencyKey(e);
  const id = e.request?.pathValue("id") ?? "";
  /** @type {typeof import("../core/changes.js")} */
  const changes = require(`${__hooks}/lib/core/changes.js`);
  const route = `POST /api/v1/proxies/{id}/${action}`;
  return changes.answerChange(e, { userId: user.id, route, input: { id } }, (txApp) => work(txApp, ownedRow(txApp, user.id, id), user));
}

/**
 * POST /api/v1/proxies/{id}/replace  Idempotency-Key -> {proxy, replacement}: the proxy with
 * its new exit (same credentials) and the preview after it.
 * @param {core.RequestEvent} e
 */
function replaceRoute(e) {
  return ownedProxyChange(e, "replace", (txApp, row, user) => {
    const preview = previewOf(txApp, row);
    if (preview.counts && preview.replacements_left < 1) {
      const message = `No free replacements left: this proxy's plan gives ${preview.replacements_per_term} a term and they are used. Renew it to start a new term.`;
      throw new ApiError(409, message, { id: new ValidationError("no_replacements_left", message) });
    }
    const stockId = health().stockFor(txApp, row);
    if (!stockId) {
      const message = `No ${proxies.typeLabel(row.type)} proxy is in stock in ${health().placeText(row)} to replace this one. Try again later.`;
      throw new ApiError(409, message, { id: new ValidationError("insufficient_stock", message) });
    }
    health().swapExits(txApp, row.id, stockId);
    const used = preview.counts ? preview.replacements_used + 1 : preview.replacements_used;
    txApp
      .db()
      .newQuery("UPDATE proxies SET replacements_used = {:used}, replacements_for = {:term} WHERE id = {:id}")
      .bind({ used, term: row.expires_at, id: row.id })
      .execute();
    require(`${__hooks}/lib/activity/activity.js`).record(
      txApp,
      e,
      user.id,
      "proxy_replaced",
      `Replaced the IP of proxy ${row.username} (same credentials)`,
      { proxy_id: row.id },
    );
    return { proxy: proxyView(txApp, row.id), replacement: previewOf(txApp, ownedRow(txApp, user.id, row.id)) };
  });
}

/**
 * The proxy as its owner sees it (with password and ports).
 * @param {CoreApp} app
 * @param {string} id
 */
function proxyView(app, id) {
  const record = app.findRecordById("proxies", id);
  return require(`${__hooks}/lib/core/views.js`).proxyRecordView(
    require(`${__hooks}/lib/proxies/gateway-endpoint.js`).withPorts(require(`${__hooks}/lib/proxies/credentials.js`).withPassword(record)),
  );
}

/**
 * The days left of what the proxy's latest order (purchase or renewal) paid for it, in cents.
 * @param {CoreApp} app
 * @param {ReturnType<typeof ownedRow>} row
 */
function proRataCents(app, row) {
  const paid = sql.rowsLike({ unit: 0 });
  app
    .db()
    .newQuery(
      `SELECT CAST(json_extract(j.value, '$.unit_price_cents') AS INTEGER) AS unit FROM proxy_orders o, json_each(o.items) j
       WHERE o.user_id = {:userId} AND o.status = 'completed' AND json_extract(j.value, '$.id') = {:id} ORDER BY o.created DESC LIMIT 1`,
    )
    .bind({ userId: row.assigned_to_user_id, id: row.id })
    .all(paid);
  const unit = paid[0]?.unit ?? 0;
  const left = new Date(row.expires_at.replace(" ", "T")).getTime() - Date.now();
  const term = proxies.TERM_DAYS * 86400000;
  return Math.max(0, Math.min(unit, Math.floor((unit * left) / term)));
}

/**
 * POST /api/v1/proxies/{id}/refund  Idempotency-Key -> {refunded_cents, balance_cents}.
 * @param {core.RequestEvent} e
 */
function refundRoute(e) {
  return ownedProxyChange(e, "refund", (txApp, row, user) => {
    if (!row.exit_down_at) {
      const message = "Only a proxy whose exit is down can be refunded here; for other refunds contact support.";
      throw new ApiError(409, message, { id: new ValidationError("exit_not_down", message) });
    }
    const ledger = require(`${__hooks}/lib/money/ledger.js`);
    const cents = proRataCents(txApp, row);
    let balance = ledger.balanceRecord(txApp, user.id).getInt("balance_cents");
    if (cents > 0) {
      balance = ledger.applyLedgerEntry(txApp, {
        userId: user.id,
        type: "REFUND",
        amountCents: cents,
        description: `Refund of the days left on proxy ${row.username} (its exit stopped working)`,
        reference: `exit-refund:${row.id}:${row.term_started_at || row.expires_at}`,
      }).balanceCents;
    }
    const now = new DateTime().string();
    txApp
      .db()
      .newQuery(
        `UPDATE proxies SET status = 'MAINTENANCE', withdrawn_at = {:now}, assigned_to_user_id = '', password_encrypted = {:password},
         expires_at = '', auto_renew = FALSE, expiry_notice_sent_at = '', exit_down_at = '', updated = {:now} WHERE id = {:id}`,
      )
      .bind({ id: row.id, now, password: require(`${__hooks}/lib/core/sealing.js`).sealPassword(proxies.newPassword()) })
      .execute();
    require(`${__hooks}/lib/activity/activity.js`).record(
      txApp,
      e,
      user.id,
      "proxy_exit_refund",
      `Refunded ${ledger.formatUsd(cents)} for the days left on proxy ${row.username}`,
      { proxy_id: row.id, refunded_cents: cents },
    );
    return { proxy_id: row.id, refunded_cents: cents, balance_cents: balance };
  });
}

module.exports = { DEFAULT_REPLACEMENTS, replacementsPerTerm, previewRoute, replaceRoute, refundRoute };
