// @ts-check
// System Settings: the site's key/value `settings` rows read as typed values, validated
// (setting-rules.js) and saved together with one audit row. Every route needs a signed-in
// shop admin (401 anonymous, 403 otherwise). Errors are {status, message, data: {field:
// {code, message}}}.

/** @type {typeof import("./setting-rules.js")} */
const { RULES, KEYS } = require(`${__hooks}/lib/settings/setting-rules.js`);

/** @typedef {import("./setting-rules.js").ConsoleSettings} ConsoleSettings */

/**
 * The stored rows of `keys` (key -> value); a key without a row is absent.
 * @param {CoreApp} app
 * @returns {Record<string, string>}
 */
function storedValues(app) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const list = sql.inList("key", KEYS);
  const rows = sql.rowsLike({ key: "", value: "" });
  app
    .db()
    .newQuery(`SELECT key, value FROM settings WHERE ${list.sql}`)
    .bind(list.params)
    .all(/** @type {any} */ (rows));
  /** @type {Record<string, string>} */
  const out = {};
  for (const row of rows) out[row.key] = row.value;
  return out;
}

/**
 * The settings as the console edits them: stored values, the defaults for missing rows.
 * @param {CoreApp} app
 * @returns {ConsoleSettings}
 */
function readSettings(app) {
  /** @type {Record<string, string>} */
  const defaults = require(`${__hooks}/lib/default-settings.json`);
  const stored = storedValues(app);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of KEYS) {
    const raw = key in stored ? stored[key] : (defaults[key] ?? "");
    const rule = RULES[key];
    if (rule.kind === "bool") out[key] = raw === "true";
    else if (rule.kind === "cents" || rule.kind === "count") {
      const n = parseInt(raw, 10);
      out[key] = n > 0 ? Math.min(n, rule.max) : 0;
    } else out[key] = raw;
  }
  return /** @type {ConsoleSettings} */ (out);
}

/**
 * Checks a PUT body: every required key present and valid, no unknown key. Answers the
 * values to store (text, "true"/"false", whole cents as text) for the keys it carries.
 * Throws a 400 whose data names each bad field with its message.
 * @param {Record<string, unknown>} body
 * @returns {Record<string, string>}
 */
function validateSettings(body) {
  /** @type {Record<string, {code: string, message: string}>} */
  const errors = {};
  /** @type {Record<string, string>} */
  const values = {};
  /** @type {(code: string, message: string) => {code: string, message: string}} */
  const err = (code, message) => ({ code, message });
  for (const key of Object.keys(body)) {
    if (!(key in RULES)) errors[key] = err("validation_unknown_setting", `Unknown setting "${key}"`);
  }
  for (const key of KEYS) {
    const rule = RULES[key];
    const value = body[key];
    if (value === undefined || value === null) {
      if (!rule.required) continue;
      errors[key] = err(
        "validation_required",
        rule.kind === "text" ? (rule.requiredMessage ?? `${rule.label} is required`) : `${rule.label} must be on or off`,
      );
      continue;
    }
    if (rule.kind === "bool") {
      if (typeof value !== "boolean") errors[key] = err("validation_invalid_value", `${rule.label} must be on or off`);
      else values[key] = value ? "true" : "false";
      continue;
    }
    if (rule.kind === "cents") {
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > rule.max) {
        errors[key] = err(
          "validation_invalid_value",
          `${rule.label} must be a whole number of cents from 0 to ${rule.max} ($${rule.max / 100})`,
        );
      } else values[key] = String(value);
      continue;
    }
    if (rule.kind === "count") {
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > rule.max) {
        errors[key] = err("validation_invalid_value", `${rule.label} must be a whole number from 0 (no limit) to ${rule.max}`);
      } else values[key] = String(value);
      continue;
    }
    const text = typeof value === "string" ? value.trim() : null;
    if (text === null) {
      errors[key] = err("validation_invalid_value", `${rule.label} must be text`);
    } else if (text === "" && rule.required) {
      errors[key] = err("validation_required", rule.requiredMessage ?? `${rule.label} is required`);
    } else if (text.length > rule.max) {
      errors[key] = err("validation_max_length", `${rule.label} must be at most ${rule.max} characters`);
    } else {
      const message = rule.check ? rule.check(text) : "";
      if (message) errors[key] = err("validation_invalid_value", message);
      else values[key] = rule.normalize ? rule.normalize(text) : text;
    }
  }
  const fields = Object.keys(errors);
  if (fields.length > 0) {
    /** @type {Record<string, ValidationError>} */
    const data = {};
    for (const field of fields) data[field] = new ValidationError(errors[field].code, errors[field].message);
    const message = fields.length === 1 ? `${errors[fields[0]].message}.` : "Please check the highlighted fields.";
    throw new BadRequestError(message, data);
  }
  return values;
}

/**
 * Writes `values` (key -> stored text): one record save per changed key (so the public
 * pages hear of it), a new row for a key that has none. Must run inside the transaction
 * that also writes the audit row.
 * @param {CoreApp} txApp
 * @param {Record<string, string>} values
 * @returns {Record<string, {from: string | null, to: string}>} only the keys that changed
 */
function saveSettings(txApp, values) {
  const collection = txApp.findCachedCollectionByNameOrId("settings");
  /** @type {Record<string, {from: string | null, to: string}>} */
  const changes = {};
  for (const key of Object.keys(values)) {
    /** @type {core.Record | null} */
    let record = null;
    try {
      record = txApp.findFirstRecordByData("settings", "key", key);
    } catch (_) {
      record = null;
    }
    const before = record ? record.getString("value") : null;
    if (before === values[key]) continue;
    if (!record) {
      record = new Record(collection);
      record.set("key", key);
    }
    record.set("value", values[key]);
    txApp.save(record);
    changes[key] = { from: before, to: values[key] };
  }
  return changes;
}

/**
 * GET /api/admin/settings -> the settings (ConsoleSettings), stored values or the defaults.
 * @param {core.RequestEvent} e
 */
function get(e) {
  require(`${__hooks}/lib/core/admin.js`).requireAdmin(e);
  return e.json(200, readSettings(e.app));
}

/**
 * PUT /api/admin/settings {site_name, site_description, primary_color (#RGB/#RRGGBB),
 *   logo_url?, contact_email, contact_phone, contact_address?, default_support_name,
 *   admin_registration_enabled: bool, demo_mode: bool, welcome_credit_cents?: 0-10000,
 *   welcome_credit_spendable_cents?: 0-10000 (how much of the welcome credit buys proxies
 *   before a first Stripe payment), welcome_credits_per_address_per_day?: 0-1000 (0 = no limit)}
 * -> the settings, as GET answers them.
 *
 * Keys left out (optional ones) keep their value; unknown keys are refused (400). Changed
 * keys are saved as records (so the public pages reload) with ONE audit row
 * "settings.update" {changes: {key: {from, to}}} (values as stored: text, "true"/"false");
 * nothing changed = nothing written.
 *
 * Demo mode: while demo_mode is "true" this route (and every console write) is refused,
 * so no console user can switch it off. The off-switch is the superuser's: the settings
 * row demo_mode in the PocketBase dashboard (/_/), or SHOP_DEMO_MODE=true|false, which
 * pins the value on every start.
 * @param {core.RequestEvent} e
 */
function put(e) {
  require(`${__hooks}/lib/core/admin.js`).requireAdminWrite(e);
  const values = validateSettings(require(`${__hooks}/lib/core/api.js`).jsonBody(e));
  e.app.runInTransaction((txApp) => {
    const changes = saveSettings(txApp, values);
    if (Object.keys(changes).length > 0) {
      require(`${__hooks}/lib/core/audit.js`).writeAuditLog(txApp, {
        adminId: e.auth?.id ?? "",
        action: "settings.update",
        targetType: "settings",
        targetId: "",
        details: { changes },
      });
    }
  });
  return e.json(200, readSettings(e.app));
}

module.exports = { readSettings, get, put };
