// @ts-check
// One row of the key/value `settings` collection, read by SQL (no record loaded): the
// switches and numbers the hooks act on (demo mode, admin registration, welcome credits).

/**
 * The stored text of setting `key`, or null when it has no row.
 * @param {CoreApp} app  a transaction's app reads inside it
 * @param {string} key
 * @returns {string | null}
 */
function settingText(app, key) {
  const row = new DynamicModel({ value: "" });
  try {
    app.db().newQuery("SELECT value FROM settings WHERE key = {:key} LIMIT 1").bind({ key }).one(row);
  } catch (_) {
    return null;
  }
  return row.value;
}

/**
 * True when setting `key` is "true" (a missing row is off).
 * @param {CoreApp} app
 * @param {string} key
 */
function settingOn(app, key) {
  return settingText(app, key) === "true";
}

/**
 * A whole-number setting: `fallback` when the row is missing, 0 when it is not a number
 * or below 0.
 * @param {CoreApp} app
 * @param {string} key
 * @param {number} fallback
 */
function settingCount(app, key, fallback) {
  const raw = settingText(app, key);
  if (raw === null) return fallback;
  const value = parseInt(raw, 10);
  return value > 0 ? value : 0;
}

module.exports = { settingText, settingOn, settingCount };
