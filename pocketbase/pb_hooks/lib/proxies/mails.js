// @ts-check
// The mails the proxies domain sends: the receipt of a proxy purchase, the notice of a refunded
// order, and the notice that a customer's proxies moved to the gateway (issue #16).
// Built with the shop's one mail layout (lib/core/mail-templates.js) and sent after the
// transaction committed, once per action (never on an Idempotency-Key replay or a repeated
// webhook). Building or sending a mail never throws: a failure is logged, the action stands.

/** @type {typeof import("../core/mail-templates.js")} */
const templates = require(`${__hooks}/lib/core/mail-templates.js`);
/** @type {typeof import("../core/mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("../money/ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);

const usd = ledger.formatUsd;

/**
 * The receipt of a proxy purchase: the order, its total, the balance after and the proxies.
 * Credentials stay in the dashboard (a mail is no place for passwords).
 * @param {CoreApp} app
 * @param {string} userId
 * @param {{ order: Record<string, any>, proxies: Record<string, any>[], balance_cents: number }} view  the route's answer
 */
function proxyReceipt(app, userId, view) {
  return templates.deliver(app, "proxy receipt", () => {
    const user = app.findRecordById("users", userId);
    const order = view.order;
    const number = proxies.orderNumber(String(order["id"]));
    const what = proxies.proxiesLabel(Number(order["quantity"]), String(order["proxy_type"]));
    const place = [order["country"], order["state"], order["city"]].filter(Boolean).join(" / ");
    return {
      to: user.email(),
      subject: `Receipt for order ${number} (${what})`,
      name: user.getString("first_name"),
      paragraphs: [
        `Thank you for your purchase. You bought ${what} in ${place} for ${proxies.TERM_DAYS} days; their credentials are in your dashboard.`,
      ],
      rows: [
        ["Order", number],
        ["Total", usd(Number(order["total_cents"]))],
        ["Balance after", usd(view.balance_cents)],
      ],
      lines: view.proxies.map(
        (p) =>
          `${p["host"]}:${p["port"]} (${proxies.typeLabel(String(p["type"]))}, ${p["country"]}), expires ${String(p["expires_at"]).slice(0, 10)}`,
      ),
      link: { url: `${mail.appUrl(app)}/dashboard/proxies`, label: "See your proxies" },
    };
  });
}

/**
 * The notice of a refunded order: the amount back, why, the balance after.
 * @param {CoreApp} app
 * @param {string} orderId
 */
function refundNotice(app, orderId) {
  return templates.deliver(app, "refund notice", () => {
    const order = app.findRecordById("proxy_orders", orderId);
    if (order.getString("status") !== "refunded") return null;
    const user = app.findRecordById("users", order.getString("user_id"));
    const number = proxies.orderNumber(order.id);
    const entry = ledger.entryByReference(app, user.id, `refund:${order.id}`);
    const amount = order.getInt("total_cents");
    const kind = order.getString("kind") === "renewal" ? "renewal" : "purchase";
    const what = proxies.proxiesLabel(order.getInt("quantity"), order.getString("proxy_type") || undefined);
    /** @type {[string, string][]} */
    const rows = [
      ["Order", number],
      ["Refunded", usd(amount)],
    ];
    if (entry) rows.push(["Balance after", usd(entry.getInt("balance_after_cents"))]);
    return {
      to: user.email(),
      subject: `Refund of order ${number} (${usd(amount)})`,
      name: user.getString("first_name"),
      paragraphs: [
        `We refunded your order ${number} (${what} ${kind}): ${usd(amount)} is back in your balance.`,
        kind === "purchase" ? "The order's proxies are no longer yours." : "The days this renewal bought were taken off its proxies.",
        `Reason: ${order.getString("refund_reason")}`,
      ],
      rows,
      link: { url: `${mail.appUrl(app)}/dashboard/transactions`, label: "See your transactions" },
    };
  });
}

/**
 * The notice that the owner's proxies moved to the shop's gateway (issue #16): their host
 * and port changed, the username and password they hold did not.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {{ host: string, port: number, username: string, type: string, country: string, ports: { http?: number, socks5?: number, https?: number } }[]} moved
 */
function endpointMoved(app, userId, moved) {
  return templates.deliver(app, "endpoint moved", () => {
    if (moved.length === 0) return null;
    const user = app.findRecordById("users", userId);
    if (user.getBool("deleted")) return null;
    const hostPort = (/** @type {string} */ host, /** @type {number} */ port) =>
      host.indexOf(":") >= 0 ? `[${host}]:${port}` : `${host}:${port}`;
    return {
      to: user.email(),
      subject: moved.length === 1 ? "Your proxy has a new host and port" : "Your proxies have a new host and port",
      name: user.getString("first_name"),
      paragraphs: [
        `${moved.length === 1 ? "Your proxy now connects" : `Your ${moved.length} proxies now connect`} through our own gateway, so the host and port to use have changed.`,
        "Your username and password stay the same. Update the host and port wherever you use these proxies:",
      ],
      lines: moved.map((p) => {
        const socks = p.ports.socks5 !== undefined && p.ports.http !== undefined ? ` (SOCKS5: port ${p.ports.socks5})` : "";
        return `${p.username}: ${hostPort(p.host, p.port)}${socks}, ${proxies.typeLabel(p.type)}, ${p.country}`;
      }),
      link: { url: `${mail.appUrl(app)}/dashboard/proxies`, label: "See your proxies" },
    };
  });
}

/**
 * Tells each owner whose proxies moved to the gateway (marked endpoint_notice_pending by the
 * 1764600200 migration) once by mail: their host and port changed, their username and
 * password did not. The marks of an owner are cleared before the mail goes out, so a
 * crash never sends it twice. Returns the number of mails sent.
 * @param {CoreApp} app
 */
function sendEndpointNotices(app) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const rows = sql.rowsLike({ id: "", user_id: "", host: "", port: 0, username: "", type: "", country: "" });
  try {
    app
      .db()
      .newQuery(
        `SELECT id, assigned_to_user_id AS user_id, host, port, username, type, country FROM proxies
         WHERE endpoint_notice_pending = TRUE ORDER BY assigned_to_user_id, created, rowid`,
      )
      .all(rows);
  } catch (_) {
    return 0; // not migrated yet
  }
  /** @type {Map<string, typeof rows>} */
  const byOwner = new Map();
  for (const row of rows) byOwner.set(row.user_id, [...(byOwner.get(row.user_id) ?? []), row]);
  let sent = 0;
  for (const [userId, owned] of byOwner) {
    const list = sql.inList(
      "id",
      owned.map((r) => r.id),
    );
    app.db().newQuery(`UPDATE proxies SET endpoint_notice_pending = FALSE WHERE ${list.sql}`).bind(list.params).execute();
    if (!userId) continue; // released since the move: nobody to tell
    const moved = owned.map((r) => ({
      host: r.host,
      port: r.port,
      username: r.username,
      type: r.type,
      country: r.country,
      ports: require(`${__hooks}/lib/proxies/gateway-endpoint.js`).portsFor(r.type),
    }));
    if (endpointMoved(app, userId, moved)) sent++;
  }
  return sent;
}

module.exports = { proxyReceipt, refundNotice, endpointMoved, sendEndpointNotices };
