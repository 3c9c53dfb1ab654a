// @ts-check
// Proxy passwords at rest: `proxies.password_encrypted` holds "v1:" + base64(AES-256-GCM
// nonce | ciphertext | tag) made by PocketBase's $security.encrypt, under the key in the
// SHOP_CREDENTIALS_KEY environment variable. The key never lives in the database, a
// settings row or the PocketBase data dir (backups zip that dir). The version prefix lets
// the scheme (or the key) change later: a "v2:" reader can sit beside this one.
// Customers and admins still read plaintext: the records API adds `password` on
// enrichment (proxies.pb.js) and the routes open what they answer (lib/proxies/proxies.js).

/** The scheme every new value is sealed with. */
const SCHEME = "v1:";

/** The key: exactly 32 characters from the base64url alphabet, used as the 32 AES-256 key bytes. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const KEY_HELP =
  "SHOP_CREDENTIALS_KEY must be set to exactly 32 characters from A-Z a-z 0-9 - _ (the AES-256 key that encrypts proxy passwords), " +
  "for example the output of: node -e \"console.log(require('crypto').randomBytes(24).toString('base64url'))\". " +
  "Keep it outside the PocketBase data dir and back it up separately: without it the stored proxy passwords cannot be read.";

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
 * The credentials key from the environment; throws a message saying what is wrong.
 * @returns {string}
 */
function credentialsKey() {
  const key = $os.getenv("SHOP_CREDENTIALS_KEY");
  if (!key) throw new Error(`SHOP_CREDENTIALS_KEY is not set. ${KEY_HELP}`);
  if (!KEY_PATTERN.test(key)) throw new Error(`SHOP_CREDENTIALS_KEY is malformed. ${KEY_HELP}`);
  return key;
}

/**
 * The stored form of a proxy password (a new random nonce each time, so equal passwords
 * never have equal ciphertexts).
 * @param {string} plain
 * @returns {string}
 */
function sealPassword(plain) {
  return SCHEME + $security.encrypt(plain, credentialsKey());
}

/**
 * sealPassword for a batch: the key is read and checked once.
 * @returns {(plain: string) => string}
 */
function sealer() {
  const key = credentialsKey();
  return (plain) => SCHEME + $security.encrypt(plain, key);
}

/**
 * The plaintext of a stored proxy password ("" for ""). Throws when the value was not made
 * by sealPassword under this key.
 * @param {string} sealed
 * @returns {string}
 */
function openPassword(sealed) {
  if (!sealed) return "";
  if (sealed.slice(0, SCHEME.length) !== SCHEME) {
    throw new Error("A stored proxy password is not in a known encrypted form.");
  }
  const key = credentialsKey();
  try {
    return String($security.decrypt(sealed.slice(SCHEME.length), key));
  } catch (_) {
    throw new Error("A stored proxy password cannot be decrypted with SHOP_CREDENTIALS_KEY (wrong key or damaged value).");
  }
}

/**
 * Refuses to start PocketBase unless SHOP_CREDENTIALS_KEY is valid and opens the passwords
 * already stored (a wrong key would otherwise be found only when a customer looks).
 * @param {CoreApp} app  a bootstrapped app
 */
function assertUsableKey(app) {
  credentialsKey();
  const row = new DynamicModel({ password_encrypted: "" });
  try {
    app.db().newQuery("SELECT password_encrypted FROM proxies WHERE password_encrypted != '' LIMIT 1").one(row);
  } catch (_) {
    return; // no proxies yet, or the schema is not migrated yet (the migration encrypts)
  }
  try {
    openPassword(row.password_encrypted);
  } catch (_) {
    throw new Error(
      "SHOP_CREDENTIALS_KEY does not decrypt the proxy passwords stored in this data dir: it is not the key they were encrypted with. Start with the original key.",
    );
  }
}

/**
 * A record of `proxies` as JSON with its plaintext `password` (what owners and admins see).
 * @param {core.Record} record
 * @returns {core.Record}
 */
function withPassword(record) {
  record.withCustomData(true);
  record.set("password", openPassword(record.getString("password_encrypted")));
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
    return openPassword(record.getString("password_encrypted"));
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
  record.set("password_encrypted", sealPassword(plain));
  record.withCustomData(true);
  record.set("password", plain);
  return true;
}

module.exports = {
  MAX_PASSWORD_LENGTH,
  credentialsKey,
  sealPassword,
  sealer,
  openPassword,
  assertUsableKey,
  withPassword,
  MIN_PROXY_PASSWORD_LENGTH,
  passwordProblem,
  proxyPasswordProblem,
  storedPassword,
  sealRequestPassword,
};
