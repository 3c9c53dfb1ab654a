// @ts-check
// Secrets at rest (proxy passwords, webhook secrets, kept idempotent answers): "v1:" +
// base64(AES-256-GCM nonce | ciphertext | tag) made by PocketBase's $security.encrypt, under
// the key in the SHOP_CREDENTIALS_KEY environment variable. The key never lives in the
// database, a settings row or the PocketBase data dir (backups zip that dir). The version
// prefix lets the scheme (or the key) change later: a "v2:" reader can sit beside this one.
// What a proxy password may be is the proxies domain's (lib/proxies/credentials.js).

/** The scheme every new value is sealed with. */
const SCHEME = "v1:";

/** The key: exactly 32 characters from the base64url alphabet, used as the 32 AES-256 key bytes. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const KEY_HELP =
  "SHOP_CREDENTIALS_KEY must be set to exactly 32 characters from A-Z a-z 0-9 - _ (the AES-256 key that encrypts proxy passwords), " +
  "for example the output of: node -e \"console.log(require('crypto').randomBytes(24).toString('base64url'))\". " +
  "Keep it outside the PocketBase data dir and back it up separately: without it the stored proxy passwords cannot be read.";

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

module.exports = { credentialsKey, sealPassword, sealer, openPassword, assertUsableKey };
