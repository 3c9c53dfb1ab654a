// @ts-check
// Dead upstreams leave stock (issue #28 item 1). The gateway marks a proxy whose upstream it
// cannot reach (upstream_failed_at, the first failure of a run; upstream_error) and clears the
// mark when the upstream answers again (a customer's connection, or its probe of marked
// upstreams: pocketbase/gateway/probe.go). The upstream health job (proxies.pb.js, every
// minute; superusers run it at once with POST /api/admin/jobs/upstream-health) acts on marks
// older than the upstream_offline_after_seconds setting (default 120):
// 1. an AVAILABLE proxy leaves stock: MAINTENANCE with withdrawn_at (not offered, not sold,
//    not counted); it comes back to AVAILABLE once the mark is cleared;
// 2. a sold (ASSIGNED) proxy gets a healthy exit of the same type and place from stock
//    (exits swapped: the owner keeps id, username, password and term; the stock proxy takes
//    the dead exit and leaves stock with it). With none in stock its exit_down_at is set once:
//    the owner is mailed, the card says so and offers a pro-rata refund
//    (lib/proxies/replacement.js); a later run replaces it when stock arrives, and the mark
//    goes when the exit answers again.
// Each run handles at most BATCH proxies per step; every step is safe to run again.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** The most proxies one run moves per step. */
const BATCH = 200;
const DEFAULT_OFFLINE_SECONDS = 120;

/** Where a proxy's traffic leaves: what a replacement swaps between two proxies. */
const EXIT_COLUMNS =
  "exit bind_address upstream_host upstream_port upstream_username upstream_password_encrypted upstream_failed_at upstream_error".split(
    " ",
  );

/** What the job and the replacement routes read of a proxy (lib/proxies/replacement.js, assign.js). */
function rowShape() {
  return {
    ...{ id: "", type: "", country: "", state: "", city: "", username: "", status: "", assigned_to_user_id: "" },
    ...{ expires_at: "", term_started_at: "", exit_down_at: "", replacements_used: 0, replacements_for: "" },
  };
}

/**
 * The proxies matching `where` (SQL after WHERE, its parameters in `params`), as rowShape.
 * @param {CoreApp} app
 * @param {string} where
 * @param {Record<string, unknown>} params
 */
function proxyRowsWhere(app, where, params) {
  const rows = sql.rowsLike(rowShape());
  app
    .db()
    .newQuery(`SELECT ${Object.keys(rowShape()).join(", ")} FROM proxies WHERE ${where}`)
    .bind(params)
    .all(rows);
  return rows;
}

/** @typedef {ReturnType<typeof proxyRowsWhere>[number]} ProxyRow */

/**
 * "DE / Bavaria / Munich": a proxy's place as the texts name it.
 * @param {{ country: string, state: string, city: string }} p
 */
function placeText(p) {
  return [p.country, p.state, p.city].filter(Boolean).join(" / ");
}

/**
 * The time before which an upstream failure makes a proxy offline (PocketBase date text).
 * @param {CoreApp} app
 */
function offlineCutoff(app) {
  const seconds = require(`${__hooks}/lib/core/settings.js`).settingCount(app, "upstream_offline_after_seconds", DEFAULT_OFFLINE_SECONDS);
  return new Date(Date.now() - seconds * 1000).toISOString().replace("T", " ");
}

/**
 * A healthy AVAILABLE proxy of the same type and place as `proxy` (not `proxy` itself), or null.
 * @param {CoreApp} app
 * @param {{ id: string, type: string, country: string, state: string, city: string }} proxy
 * @returns {string | null}
 */
function stockFor(app, proxy) {
  const rows = sql.rowsLike({ id: "" });
  app
    .db()
    .newQuery(
      `SELECT id FROM proxies WHERE status = 'AVAILABLE' AND type = {:type} AND country = {:country} AND state = {:state}
       AND city = {:city} AND upstream_failed_at = '' AND id != {:id} ORDER BY RANDOM() LIMIT 1`,
    )
    .bind({ id: proxy.id, type: proxy.type, country: proxy.country, state: proxy.state, city: proxy.city })
    .all(rows);
  return rows[0]?.id ?? null;
}

/**
 * Swaps the exits of the owned proxy and a stock proxy (credentials, owner and term stay):
 * the gateway follows within its usual second and cuts the owned proxy's tunnels. A stock
 * proxy that got a failing exit leaves stock with it (withdrawn).
 * @param {CoreApp} txApp
 * @param {string} ownedId
 * @param {string} stockId
 */
function swapExits(txApp, ownedId, stockId) {
  /** @type {Record<string, string | number>} */
  const shape = {};
  for (const c of EXIT_COLUMNS) shape[c] = c === "upstream_port" ? 0 : "";
  const read = (/** @type {string} */ id) => {
    const row = new DynamicModel({ ...shape });
    txApp
      .db()
      .newQuery(`SELECT ${EXIT_COLUMNS.join(", ")} FROM proxies WHERE id = {:id}`)
      .bind({ id })
      .one(row);
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const c of EXIT_COLUMNS) out[c] = row[c];
    return out;
  };
  const owned = read(ownedId);
  const stock = read(stockId);
  const now = new DateTime().string();
  const set = EXIT_COLUMNS.map((c) => `${c} = {:${c}}`).join(", ");
  txApp
    .db()
    .newQuery(`UPDATE proxies SET ${set}, exit_down_at = '', updated = {:now} WHERE id = {:id}`)
    .bind({ ...stock, id: ownedId, now })
    .execute();
  const withdraw = owned["upstream_failed_at"] ? ", status = 'MAINTENANCE', withdrawn_at = {:now}" : "";
  txApp
    .db()
    .newQuery(`UPDATE proxies SET ${set}${withdraw}, updated = {:now} WHERE id = {:id} AND +status = 'AVAILABLE'`)
    .bind({ ...owned, id: stockId, now })
    .execute();
}

/**
 * One run of the job; answers how many proxies each step moved. Mails go out after the
 * commit of the step that decided them.
 * @param {CoreApp} app
 */
function runHealthJob(app) {
  const cutoff = offlineCutoff(app);
  const now = new DateTime().string();
  const report = { withdrawn: 0, returned: 0, replaced: 0, down: 0, recovered: 0 };
  report.withdrawn = app
    .db()
    .newQuery(
      `UPDATE proxies SET status = 'MAINTENANCE', withdrawn_at = {:now}, updated = {:now} WHERE id IN (
         SELECT id FROM proxies WHERE status = 'AVAILABLE' AND upstream_failed_at != '' AND upstream_failed_at <= {:cutoff} LIMIT {:limit})`,
    )
    .bind({ now, cutoff, limit: BATCH })
    .execute()
    .rowsAffected();
  report.returned = app
    .db()
    .newQuery(
      `UPDATE proxies SET status = 'AVAILABLE', withdrawn_at = '', updated = {:now} WHERE id IN (
         SELECT id FROM proxies WHERE status = 'MAINTENANCE' AND withdrawn_at != '' AND upstream_failed_at = '' LIMIT {:limit})`,
    )
    .bind({ now, limit: BATCH })
    .execute()
    .rowsAffected();
  report.recovered = app
    .db()
    .newQuery(
      `UPDATE proxies SET exit_down_at = '', updated = {:now} WHERE id IN (
         SELECT id FROM proxies WHERE exit_down_at != '' AND (upstream_failed_at = '' OR status != 'ASSIGNED') LIMIT {:limit})`,
    )
    .bind({ now, limit: BATCH })
    .execute()
    .rowsAffected();

  const dead = proxyRowsWhere(
    app,
    "status = 'ASSIGNED' AND upstream_failed_at != '' AND upstream_failed_at <= {:cutoff} ORDER BY upstream_failed_at LIMIT {:limit}",
    { cutoff, limit: BATCH },
  );
  for (const proxy of dead) {
    const outcome = handleDeadExit(app, proxy);
    if (outcome === "replaced") report.replaced++;
    if (outcome === "down") {
      report.down++;
      require(`${__hooks}/lib/proxies/mails.js`).exitDownNotice(app, proxy.assigned_to_user_id, proxy);
    }
  }
  return report;
}

/**
 * A sold proxy whose exit is dead: replaced from stock, or marked down (once).
 * @param {CoreApp} app
 * @param {ProxyRow} proxy
 * @returns {"replaced" | "down" | "unchanged"}
 */
function handleDeadExit(app, proxy) {
  /** @type {typeof import("../activity/activity.js")} */
  const activity = require(`${__hooks}/lib/activity/activity.js`);
  /** @type {"replaced" | "down" | "unchanged"} */
  let outcome = "unchanged";
  app.runInTransaction((txApp) => {
    const stockId = stockFor(txApp, proxy);
    const place = placeText(proxy);
    if (stockId) {
      swapExits(txApp, proxy.id, stockId);
      activity.record(
        txApp,
        null,
        proxy.assigned_to_user_id,
        "proxy_replaced",
        `The exit of proxy ${proxy.username} stopped answering and was replaced (same credentials, ${place})`,
        { proxy_id: proxy.id, automatic: true },
      );
      outcome = "replaced";
      return;
    }
    if (proxy.exit_down_at) return;
    const now = new DateTime().string();
    txApp
      .db()
      .newQuery("UPDATE proxies SET exit_down_at = {:now}, updated = {:now} WHERE id = {:id}")
      .bind({ now, id: proxy.id })
      .execute();
    activity.record(
      txApp,
      null,
      proxy.assigned_to_user_id,
      "proxy_exit_down",
      `The exit of proxy ${proxy.username} stopped answering and none is in stock in ${place}: a refund is offered`,
      { proxy_id: proxy.id },
    );
    outcome = "down";
  });
  return outcome;
}

function runScheduled() {
  const report = runHealthJob($app);
  if (Object.values(report).some((n) => n > 0)) $app.logger().info("Upstream health job", "report", JSON.stringify(report));
}

/**
 * POST /api/admin/jobs/upstream-health: runs the job now and answers its report (superusers).
 * @param {core.RequestEvent} e
 */
function runJobRoute(e) {
  return e.json(200, runHealthJob(e.app));
}

module.exports = { EXIT_COLUMNS, proxyRowsWhere, placeText, offlineCutoff, stockFor, swapExits, runHealthJob, runScheduled, runJobRoute };
