// @ts-check
// Helpers for the customer routes under /api/v1/ (the future public API): reading the
// JSON body, the Idempotency-Key header, who may buy, and errors that name the field.

/** What an Idempotency-Key may look like: 1-255 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The answer to a body PocketBase cannot parse (broken JSON, a JSON array or scalar, a broken form). */
const UNREADABLE_BODY = "The request body could not be read: send a JSON object with the header Content-Type: application/json.";

/**
 * The request's JSON body as a plain object ({} when there is none). A body PocketBase
 * cannot parse is a 400 that says so (not PocketBase's generic "Something went wrong").
 * @param {core.RequestEvent} e
 * @returns {Record<string, unknown>}
 */
function jsonBody(e) {
  /** @type {unknown} */
  let body;
  try {
    body = e.requestInfo().body;
  } catch (_) {
    throw new BadRequestError(UNREADABLE_BODY);
  }
  return body && typeof body === "object" && !Array.isArray(body) ? /** @type {Record<string, unknown>} */ (body) : {};
}

/**
 * The Idempotency-Key header, required on every route that moves money.
 * @param {core.RequestEvent} e
 * @returns {string}
 */
function idempotencyKey(e) {
  const key = (e.request?.header.get("Idempotency-Key") ?? "").trim();
  if (!key) {
    throw new BadRequestError(
      "An Idempotency-Key header is required: send a new random value (a UUID) with each request that changes something, and the same value when you retry it.",
    );
  }
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new BadRequestError("The Idempotency-Key header must be 1-255 visible ASCII characters (a UUID works).");
  }
  return key;
}

/**
 * A 400 whose data names the field, for forms to show under it.
 * @param {string} field
 * @param {string} message
 * @param {string} [code]
 */
function fieldError(field, message, code = "validation_invalid_value") {
  return new BadRequestError(message, { [field]: new ValidationError(code, message) });
}

/**
 * The signed-in customer (any users record), or a 401.
 * @param {core.RequestEvent} e
 * @returns {core.Record}
 */
function customer(e) {
  const auth = e.auth;
  if (!auth || auth.collection().name !== "users") {
    throw new UnauthorizedError("Sign in to your account to do this.");
  }
  return auth;
}

/**
 * The signed-in customer with a verified e-mail address: buying credits or proxies needs one.
 * @param {core.RequestEvent} e
 * @returns {core.Record}
 */
function verifiedCustomer(e) {
  const user = customer(e);
  if (!user.getBool("verified")) {
    throw new ForbiddenError(
      "Please verify your email address before buying: open the link we emailed you, or ask for a new one on the Buy Credits page.",
      { email: new ValidationError("email_not_verified", "Email address not verified") },
    );
  }
  return user;
}

/**
 * The signed-in customer, for a route that spends money or changes a proxy: while demo mode
 * is on, the demo accounts (their passwords are published) are refused (security review
 * #13, finding 5). `verified`: buying needs a verified e-mail.
 * @param {core.RequestEvent} e
 * @param {{ verified?: boolean }} [options]
 * @returns {core.Record}
 */
function actingCustomer(e, options = {}) {
  const user = options.verified ? verifiedCustomer(e) : customer(e);
  require(`${__hooks}/lib/core/demo-mode.js`).refuseDemoAccount(e.app, user);
  return user;
}

/**
 * A whole number from a JSON value, or NaN.
 * @param {unknown} value
 */
function wholeNumber(value) {
  return typeof value === "number" && Number.isSafeInteger(value) ? value : NaN;
}

/**
 * The number of characters of a text as the database counts them (Unicode code points, as
 * PocketBase's text fields do): an emoji is one character, not two UTF-16 units.
 * @param {string} value
 */
function chars(value) {
  return Array.from(value).length;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * True for a plausible e-mail address of at most 255 characters (the forms' rule).
 * @param {string} value
 */
function isEmail(value) {
  return EMAIL.test(value) && value.length <= 255;
}

/**
 * A trimmed string from a JSON value ("" for anything else).
 * @param {unknown} value
 */
function text(value) {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * @typedef {object} RequestApiKey  the API key a request came with (pocketbase/devapi)
 * @property {string} id
 * @property {string} name
 * @property {string[]} scopes
 * @property {number} spend_cap_cents  0 = no cap
 */

/**
 * The API key the request was made with, or null for a session (or no sign-in).
 * @param {core.RequestEvent} e
 * @returns {RequestApiKey | null}
 */
function requestApiKey(e) {
  const key = /** @type {RequestApiKey | null | undefined} */ (e.get("api_key"));
  return key && typeof key.id === "string" ? key : null;
}

/**
 * A moment from a query string (ISO 8601: a date, or a date and time; UTC unless it names
 * an offset) in epoch ms, or NaN: how every route reads its from/to.
 * @param {string} text
 */
function parseMoment(text) {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  if (!m) return Number.NaN;
  return Date.parse(`${m[1]}T${m[2] ?? "00:00"}${m[3] ?? "Z"}`);
}

/**
 * A query parameter, trimmed ("" when absent).
 * @param {core.RequestEvent} e
 * @param {string} name
 */
function queryParam(e, name) {
  return String(e.request?.url?.query().get(name) ?? "").trim();
}

/**
 * A query parameter that must be one of `allowed` ("" when absent): a 400 naming it otherwise.
 * @param {core.RequestEvent} e
 * @param {string} name
 * @param {readonly string[]} allowed
 */
function queryChoice(e, name, allowed) {
  const value = queryParam(e, name);
  if (value && allowed.indexOf(value) < 0) throw fieldError(name, `${name} must be one of ${allowed.join(", ")}.`);
  return value;
}

/**
 * The record `id` of `collection` when its `user` is `userId`, else a 404 with `notYours`
 * (also for another customer's: nobody learns which ids exist).
 * @param {CoreApp} app
 * @param {string} collection
 * @param {string} id
 * @param {string} userId
 * @param {string} notYours
 * @returns {core.Record}
 */
function ownRecord(app, collection, id, userId, notYours) {
  /** @type {core.Record | null} */
  let record = null;
  try {
    record = app.findRecordById(collection, id);
  } catch (_) {
    record = null;
  }
  if (!record || record.getString("user") !== userId) throw new NotFoundError(notYours);
  return record;
}

module.exports = {
  ownRecord,
  parseMoment,
  queryParam,
  queryChoice,
  requestApiKey,
  jsonBody,
  idempotencyKey,
  fieldError,
  customer,
  verifiedCustomer,
  actingCustomer,
  wholeNumber,
  text,
  chars,
  isEmail,
};
