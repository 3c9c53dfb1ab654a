// @ts-check
// Cursor paging for the developer API's lists: newest first by (created, id); the cursor
// is the last item's position, opaque to clients (base64url of "created|id"), so a page
// never repeats or skips a row however many are added meanwhile.

/** @type {typeof import("./api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

/**
 * The `limit` and `cursor` query parameters: 400s name the field.
 * @param {core.RequestEvent} e
 * @returns {{ limit: number, after: { created: string, id: string } | null }}
 */
function pageParams(e) {
  const query = e.request?.url?.query();
  const limitText = String(query?.get("limit") ?? "").trim();
  const limit = limitText === "" ? DEFAULT_LIMIT : /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw api.fieldError("limit", `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  const cursor = String(query?.get("cursor") ?? "").trim();
  if (!cursor) return { limit, after: null };
  const m = /^([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]{8,12}Z)\|([a-z0-9]{15})$/.exec(fromBase64Url(cursor));
  if (!m) throw api.fieldError("cursor", "cursor is not one this API gave: pass next_cursor from the previous page as it is.");
  return { limit, after: { created: /** @type {string} */ (m[1]), id: /** @type {string} */ (m[2]) } };
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** @param {string} bytes  ASCII (a cursor's created|id) */
function toBase64Url(bytes) {
  const chars = BASE64URL;
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes.charCodeAt(i) << 16) | ((bytes.charCodeAt(i + 1) || 0) << 8) | (bytes.charCodeAt(i + 2) || 0);
    out += chars[(n >> 18) & 63] + chars[(n >> 12) & 63];
    if (i + 1 < bytes.length) out += chars[(n >> 6) & 63];
    if (i + 2 < bytes.length) out += chars[n & 63];
  }
  return out;
}

/** @param {string} text */
function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return "";
  const chars = BASE64URL;
  let bits = 0;
  let value = 0;
  let out = "";
  for (const c of text) {
    value = (value << 6) | chars.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((value >> bits) & 255);
    }
  }
  return out;
}

/**
 * The SQL condition of a page after `after` (newest first), on a table's created and id.
 * @param {{ created: string, id: string } | null} after
 * @param {string} [alias]  the table's alias ("" for none)
 */
function afterSql(after, alias = "") {
  const t = alias ? `${alias}.` : "";
  return after ? ` AND (${t}created < {:afterCreated} OR (${t}created = {:afterCreated} AND ${t}id < {:afterId}))` : "";
}

/**
 * The answer of a list: the first `limit` rows of the `limit + 1` read, and the cursor
 * after the last when there is more.
 * @template {{ id: string, created: string }} Row
 * @template Item
 * @param {Row[]} rows  read with LIMIT limit + 1
 * @param {number} limit
 * @param {(row: Row) => Item} view
 */
function pageOf(rows, limit, view) {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown[shown.length - 1];
  return { items: shown.map(view), next_cursor: more && last ? toBase64Url(`${last.created}|${last.id}`) : null };
}

module.exports = { DEFAULT_LIMIT, MAX_LIMIT, pageParams, afterSql, pageOf };
