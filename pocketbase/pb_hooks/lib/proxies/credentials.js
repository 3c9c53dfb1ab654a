// @ts-check
// Proxy passwords: what an admin may type or import, the plaintext owners and admins read,
// and records-API writes that seal it. The sealing itself (SHOP_CREDENTIALS_KEY, AES-256-GCM)
// is lib/core/sealing.js, which webhook secrets and kept answers share.
// Customers and admins still read plaintext: the records API adds `password` on
// enrichment (proxies.pb.js) and the routes open what they answer (lib/proxies/proxies.js).

/** @type {typeof import("../core/sealing.js")} */
const sealing = require(`${__hooks}/lib/core/sealing.js`);

/** Longest plaintext password a proxy may have (characters). */
const MAX_PASSWORD_LENGTH = 255;

/** @type {{ inventory: { min_proxy_password_length: number, min_proxy_password_message: string } }} */
const CATALOG = require(`${__hooks}/lib/catalog.json`);

/**
 * Shortest password an admin may give a proxy's customer credentials (issue #26 finding 7):
 * the password is all that guards a proxy on the gateway, so one typed by hand must resist
 * guessing like the ones the shop makes (proxies.js newPassword: 20 random characters of 57,
 * about 117 bits). 12 characters of the visible ones allowed here are beyond an online
 * guesser; the console's edit form checks the same catalog value.
 */
const MIN_PROXY_PASSWORD_LENGTH = CATALOG.inventory.min_proxy_password_length;
const MIN_PROXY_PASSWORD_MESSAGE = CATALOG.inventory.min_proxy_password_message;

/**
 * A record of `proxies` as JSON with its plaintext `password` (what owners and admins see).
 * @param {core.Record} record
 * @returns {core.Record}
 */
function withPassword(record) {
  record.withCustomData(true);
  record.set("password", sealing.openPassword(record.getString("password_encrypted")));
  return record;
}

/**
 * What is wrong with a proxy password an admin typed or imported ("" when it is fine):
 * 1-255 characters, no spaces or control characters (it travels in proxy URLs and
 * host:port:username:password lines).
 * @param {string} plain
 */
function passwordProblem(plain) {
  if (!plain) return "Password is required";
  if (plain.length > MAX_PASSWORD_LENGTH) return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (/[^\x21-\x7e\u00a1-\uffff]/.test(plain)) return "Password cannot contain spaces or control characters";
  return "";
}

/**
 * What is wrong with a password an admin gives a proxy's customer credentials ("" when fine):
 * passwordProblem's rules and, unless it is the one the proxy has already (`stored`; so an
 * edit of something else never forces a customer's password to change), at least
 * MIN_PROXY_PASSWORD_LENGTH characters. Upstream passwords (the seller's, imported or typed
 * for an upstream exit) are not the shop's to choose: passwordProblem alone.
 * @param {string} plain
 * @param {string} stored  the proxy's current password ("" for a new proxy)
 */
function proxyPasswordProblem(plain, stored) {
  const problem = passwordProblem(plain);
  if (problem) return problem;
  if (plain.length < MIN_PROXY_PASSWORD_LENGTH && plain !== stored) return MIN_PROXY_PASSWORD_MESSAGE;
  return "";
}

/**
 * The plaintext password a proxy record has now ("" without one, or when it cannot be opened).
 * @param {core.Record} record
 */
function storedPassword(record) {
  try {
    return sealing.openPassword(record.getString("password_encrypted"));
  } catch (_) {
    return "";
  }
}

/**
 * For records-API writes to `proxies` (admins, superusers): the body's plain `password`
 * is sealed into `password_encrypted`; nobody writes `password_encrypted` or
 * `upstream_password_encrypted` directly (PATCH /api/admin/proxies/{id} seals an upstream's). A
 * create needs a password. Returns true when the request sets a password; the record then
 * carries the plaintext as custom data (answered, and audited as "[redacted]").
 * @param {core.RecordRequestEvent} e
 * @param {boolean} creating
 */
function sealRequestPassword(e, creating) {
  const body = /** @type {Record<string, unknown>} */ (e.requestInfo().body ?? {});
  if (body["password_encrypted"] !== undefined) {
    const message = "password_encrypted is written by the server: send the plain password as password.";
    throw new BadRequestError(message, { password_encrypted: new ValidationError("validation_read_only", message) });
  }
  if (body["upstream_password_encrypted"] !== undefined) {
    const message = "upstream_password_encrypted is written by the server: set an upstream's password in Proxy Management.";
    throw new BadRequestError(message, { upstream_password_encrypted: new ValidationError("validation_read_only", message) });
  }
  const given = body["password"];
  if (given === undefined && !creating) return false;
  const plain = typeof given === "string" ? given : typeof given === "number" ? String(given) : "";
  const record = /** @type {core.Record} */ (e.record);
  const problem = proxyPasswordProblem(plain, creating ? "" : storedPassword(record.original()));
  if (problem) throw new BadRequestError(problem, { password: new ValidationError("validation_invalid_password", problem) });
  record.set("password_encrypted", sealing.sealPassword(plain));
  record.withCustomData(true);
  record.set("password", plain);
  return true;
}

module.exports = {
  MAX_PASSWORD_LENGTH,
  withPassword,
  MIN_PROXY_PASSWORD_LENGTH,
  passwordProblem,
  proxyPasswordProblem,
  storedPassword,
  sealRequestPassword,
};
