// @ts-check
// What the whole proxies domain shares: the catalog's facts (types, term, grace period,
// limits), labels, new passwords, the proxy row as the customer routes answer it, and the
// way back to stock (purchases, renewals, refunds and the expiry job all use these).

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../core/sealing.js")} */
const sealing = require(`${__hooks}/lib/core/sealing.js`);

/**
 * @typedef {object} Catalog  the parts of lib/catalog.json this domain reads
 * @property {{ value: string, label: string, fallback_price_cents: number }[]} proxy_types
 * @property {{ max_quantity: number, max_quantity_message: string }} purchase
 * @property {{ max_generate: number, max_generate_message: string, max_import_lines: number }} inventory
 * @property {number} proxy_term_days
 * @property {number} renewal_grace_days
 * @property {number} expiry_reminder_days
 */

/** @type {Catalog} */
const CATALOG = require(`${__hooks}/lib/catalog.json`);

const PROXY_TYPES = CATALOG.proxy_types.map((t) => t.value);
/** Prices when no active plan of the type exists (spec section 3); 0: not for sale. */
const FALLBACK_PRICE_CENTS = Object.fromEntries(CATALOG.proxy_types.map((t) => [t.value, t.fallback_price_cents]));
const MAX_QUANTITY = CATALOG.purchase.max_quantity;
const MAX_QUANTITY_MESSAGE = CATALOG.purchase.max_quantity_message;
/** Days a purchase or a renewal buys. */
const TERM_DAYS = CATALOG.proxy_term_days;
/** Expired proxies stay with their owner (renewable) this long, then go back to stock. */
const GRACE_DAYS = CATALOG.renewal_grace_days;
/** Reminder mails go out this many days before expiry. */
const REMINDER_DAYS = CATALOG.expiry_reminder_days;

const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A new proxy password: 20 characters from a cryptographic source. */
function newPassword() {
  return $security.randomStringWithAlphabet(20, PASSWORD_ALPHABET);
}

const USERNAME_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A new random customer username, "res_de_" + 12 random characters: the type's first three
 * letters and the country (letters and digits, at most 12) as a prefix. Usernames are
 * unique across the shop (the gateway finds a proxy by its username); a caller inserting
 * one draws again on the rare clash.
 * @param {string} type
 * @param {string} country
 */
function newUsername(type, country) {
  const place = country
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 12);
  return `${type.slice(0, 3).toLowerCase()}_${place}_${$security.randomStringWithAlphabet(12, USERNAME_ALPHABET)}`;
}

/**
 * "Residential", "SOCKS5": the catalog's label of a type.
 * @param {string} type
 */
function typeLabel(type) {
  return CATALOG.proxy_types.find((t) => t.value === type)?.label ?? type;
}

/**
 * "5 Residential proxies", "1 Datacenter proxy".
 * @param {number} n
 * @param {string} [type]
 */
function proxiesLabel(n, type) {
  return `${n} ${type ? `${typeLabel(type)} ` : ""}${n === 1 ? "proxy" : "proxies"}`;
}

/**
 * Every broken rule under its field in one 400 (the first one's message on top); nothing
 * when there is none.
 * @param {[string, string, string][]} problems  field, code, message
 */
function throwProblems(problems) {
  if (problems.length === 0) return;
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  for (const [field, code, message] of problems) errors[field] ??= new ValidationError(code, message);
  throw new BadRequestError(problems[0]?.[2] ?? "", errors);
}

/**
 * The problem of a type that is not one of PROXY_TYPES, for throwProblems.
 * @param {string} type
 * @returns {[string, string, string][]}
 */
function typeProblems(type) {
  if (PROXY_TYPES.indexOf(type) >= 0) return [];
  return [["type", "validation_invalid_type", `Proxy type must be one of ${PROXY_TYPES.join(", ")}`]];
}

/** The columns a proxy row shares everywhere (never its password). */
function proxyShape() {
  return {
    id: "",
    host: "",
    port: 0,
    username: "",
    type: "",
    country: "",
    state: "",
    city: "",
    status: "",
    assigned_to_user_id: "",
    expires_at: "",
    auto_renew: false,
    created: "",
    updated: "",
  };
}

/**
 * The proxy columns the customer routes answer with (a proxy as its owner sees it): host
 * and port of the gateway, and `ports`, every gateway port its type may use
 * ({http, socks5}, lib/proxies/gateway-endpoint.js). Never where it exits (exit,
 * bind_address, upstream_*). `password` is still sealed when read: openPasswords() turns
 * it into plaintext.
 */
const PROXY_COLUMNS = `id, host, port, username, password_encrypted AS password, type, country, state, city, status, assigned_to_user_id,
  expires_at, auto_renew, expiry_notice_sent_at, created, updated, ${require(`${__hooks}/lib/proxies/gateway-endpoint.js`).portsSql()} AS ports`;

/** A typed empty list for `.all()` with PROXY_COLUMNS. */
function proxyRows() {
  /** @type {import("./gateway-endpoint.js").GatewayPorts} */
  const ports = {};
  return sql.rowsLike({ ...proxyShape(), password: "", expiry_notice_sent_at: "", ports });
}

/** @typedef {ReturnType<typeof proxyRows>[number]} ProxyRow */

/**
 * Replaces the sealed password of each row read with PROXY_COLUMNS by its plaintext.
 * @template {ProxyRow[]} T
 * @param {T} rows
 * @returns {T}
 */
function openPasswords(rows) {
  for (const row of rows) row.password = sealing.openPassword(row.password);
  return rows;
}

/**
 * Puts proxies back in stock: AVAILABLE, no owner, no expiry, and a new password each, so
 * their last owner's credentials stop working. Only those still in `fromStatus` change
 * (a proxy renewed or bought meanwhile is left alone). Returns how many changed.
 * @param {CoreApp} txApp  inside the caller's transaction
 * @param {string[]} ids
 * @param {"EXPIRED" | "ASSIGNED"} fromStatus
 * @returns {number}
 */
function returnToStock(txApp, ids, fromStatus) {
  const now = new DateTime().string();
  let changed = 0;
  for (const id of ids) {
    changed += txApp
      .db()
      .newQuery(
        `UPDATE proxies SET status = 'AVAILABLE', assigned_to_user_id = '', password_encrypted = {:password}, expires_at = '',
         auto_renew = FALSE, expiry_notice_sent_at = '', updated = {:now} WHERE id = {:id} AND +status = {:from}`,
      )
      .bind({ id, password: sealing.sealPassword(newPassword()), now, from: fromStatus })
      .execute()
      .rowsAffected();
  }
  return changed;
}

/**
 * The short order number customers see: the first 8 characters of its id, upper case.
 * @param {string} id
 */
function orderNumber(id) {
  return id.slice(0, 8).toUpperCase();
}

module.exports = {
  CATALOG,
  PROXY_TYPES,
  FALLBACK_PRICE_CENTS,
  MAX_QUANTITY,
  MAX_QUANTITY_MESSAGE,
  TERM_DAYS,
  GRACE_DAYS,
  REMINDER_DAYS,
  newPassword,
  newUsername,
  typeLabel,
  proxiesLabel,
  orderNumber,
  throwProblems,
  typeProblems,
  proxyShape,
  PROXY_COLUMNS,
  proxyRows,
  openPasswords,
  returnToStock,
};
