// @ts-check
// What the developer API (/api/v1) answers with, shaped once: a proxy, an order, a time.
// The shapes are the contract's (src/lib/api-contract/schemas.ts); the schema conformance
// test holds each route to them.

/**
 * A stored time in RFC 3339 ("2026-11-27 06:00:00.000Z" -> "2026-11-27T06:00:00.000Z").
 * @param {string} stored
 */
function rfc3339(stored) {
  return String(stored).replace(" ", "T");
}

/**
 * rfc3339 of a time that may be unset: null for none.
 * @param {string | undefined | null} stored
 * @returns {string | null}
 */
function iso(stored) {
  return stored ? rfc3339(stored) : null;
}

/**
 * @typedef {object} ProxyView
 * @property {string} id
 * @property {string} type
 * @property {string} country
 * @property {string} state
 * @property {string} city
 * @property {string} host
 * @property {number} port
 * @property {{ http?: number, socks5?: number, https?: number }} ports
 * @property {string} username
 * @property {string} password
 * @property {string} status
 * @property {string | null} expires_at
 * @property {boolean} auto_renew
 * @property {string} created
 */

/**
 * A proxy row (lib/proxies/proxies.js PROXY_COLUMNS, password opened) as its owner sees it.
 * @param {{ id: string, type: string, country: string, state: string, city: string, host: string, port: number, ports: unknown, username: string, password: string, status: string, expires_at: string, auto_renew: boolean | number, created: string }} row
 * @returns {ProxyView}
 */
function proxyView(row) {
  const ports = typeof row.ports === "string" ? JSON.parse(row.ports || "{}") : (row.ports ?? {});
  return {
    id: row.id,
    type: row.type,
    country: row.country,
    state: row.state,
    city: row.city,
    host: row.host,
    port: row.port,
    ports,
    username: row.username,
    password: row.password,
    status: row.status,
    expires_at: iso(row.expires_at),
    auto_renew: !!row.auto_renew,
    created: /** @type {string} */ (iso(row.created)),
  };
}

/**
 * A proxy record with its password and ports set (credentials.withPassword, gateway
 * withPorts) as its owner sees it.
 * @param {core.Record} record
 * @returns {ProxyView}
 */
function proxyRecordView(record) {
  return proxyView({
    id: record.id,
    type: record.getString("type"),
    country: record.getString("country"),
    state: record.getString("state"),
    city: record.getString("city"),
    host: record.getString("host"),
    port: record.getInt("port"),
    ports: record.get("ports"),
    username: record.getString("username"),
    password: record.getString("password"),
    status: record.getString("status"),
    expires_at: record.getString("expires_at"),
    auto_renew: record.getBool("auto_renew"),
    created: record.getString("created"),
  });
}

/**
 * An order row as the API answers it.
 * @param {{ id: string, kind: string, proxy_type: string, country: string, state: string, city: string, quantity: number, total_cents: number, items: unknown, transaction_id: string, status: string, refunded_at: string, created: string }} row
 */
function orderView(row) {
  return {
    id: row.id,
    kind: row.kind,
    proxy_type: row.proxy_type,
    country: row.country,
    state: row.state,
    city: row.city,
    quantity: row.quantity,
    total_cents: row.total_cents,
    items: /** @type {{ id: string, unit_price_cents: number }[]} */ (
      typeof row.items === "string" ? JSON.parse(row.items || "[]") : row.items
    ),
    transaction_id: row.transaction_id,
    status: row.status,
    refunded_at: iso(row.refunded_at),
    created: /** @type {string} */ (iso(row.created)),
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A stored date as the pages write a day (src/lib/dates.ts formatDate, 'MMM dd, yyyy', UTC):
 * "Nov 28, 2026"; "" when empty or unreadable.
 * @param {string} stored
 */
function dayText(stored) {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(stored ?? ""));
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${match[3]}, ${match[1]}` : "";
}

module.exports = { rfc3339, iso, dayText, proxyView, proxyRecordView, orderView };
