// @ts-check
// System Settings (console-settings.pb.js): the site's key/value `settings` rows read as
// typed values, validated with the spec's messages, and saved together with one audit row.
// Booleans are stored as "true"/"false" and the welcome credit as whole cents, like the
// rows the default-content migration writes (lib/default-settings.json).

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Digits with the usual separators, optionally an extension: "+1 (555) 010-0199 ext. 12". */
const PHONE = /^\+?[0-9][0-9 ()./-]{2,}(?:\s*(?:ext\.?|x)\s*[0-9]{1,6})?$/i;
/** An https address, or a path on this site ("/logo.svg", not "//host"). */
const LOGO_URL = /^(?:https:\/\/[^\s/]+(?:\/\S*)?|\/(?!\/)\S*)$/i;

/** The largest welcome credit (cents) the shop grants; lib/accounts/accounts.js caps it the same. */
const MAX_WELCOME_CREDIT_CENTS = 10000;

/**
 * @typedef {object} ConsoleSettings  what GET/PUT /api/admin/settings answer (and PUT takes)
 * @property {string} site_name
 * @property {string} site_description
 * @property {string} primary_color
 * @property {string} logo_url
 * @property {string} contact_email
 * @property {string} contact_phone
 * @property {string} contact_address
 * @property {string} default_support_name
 * @property {boolean} admin_registration_enabled
 * @property {boolean} demo_mode
 * @property {number} welcome_credit_cents
 * @property {number} welcome_credit_spendable_cents  how much of it buys proxies before a first Stripe payment
 * @property {number} welcome_credits_per_address_per_day  0 = no limit
 */

/**
 * @typedef {object} TextRule
 * @property {"text"} kind
 * @property {boolean} required
 * @property {number} max
 * @property {string} label          for length messages
 * @property {string} [requiredMessage]
 * @property {(value: string) => string} [check]  "" when fine, else the message
 * @property {(value: string) => string} [normalize]
 */

/** @typedef {{ kind: "bool", required: true, label: string }} BoolRule */
/** @typedef {{ kind: "cents", required: false, label: string, max: number }} CentsRule */
/** @typedef {{ kind: "count", required: false, label: string, max: number }} CountRule */
/** @typedef {TextRule | BoolRule | CentsRule | CountRule} Rule */

/**
 * Every key the console edits, in the form's order. Optional keys that are left out of a
 * PUT keep their stored value.
 * @type {Record<keyof ConsoleSettings, Rule>}
 */
const RULES = {
  site_name: { kind: "text", required: true, max: 100, label: "Site name", requiredMessage: "Site name is required" },
  site_description: {
    kind: "text",
    required: true,
    max: 300,
    label: "Site description",
    requiredMessage: "Site description is required",
  },
  primary_color: {
    kind: "text",
    required: true,
    max: 7,
    label: "Primary color",
    requiredMessage: "Primary color is required",
    check: (v) => (HEX_COLOR.test(v) ? "" : "Primary color must be a hex color like #3B82F6"),
    normalize: (v) => {
      const hex = v.slice(1).toUpperCase();
      return `#${hex.length === 3 ? hex.replace(/./g, "$&$&") : hex}`;
    },
  },
  logo_url: {
    kind: "text",
    required: false,
    max: 500,
    label: "Logo URL",
    check: (v) => (v === "" || LOGO_URL.test(v) ? "" : "Logo URL must start with https:// or / (a file on this site)"),
  },
  contact_email: {
    kind: "text",
    required: true,
    max: 255,
    label: "Email",
    requiredMessage: "Valid email is required",
    check: (v) => (EMAIL.test(v) ? "" : "Valid email is required"),
    normalize: (v) => v.toLowerCase(),
  },
  contact_phone: {
    kind: "text",
    required: true,
    max: 50,
    label: "Phone number",
    requiredMessage: "Phone number is required",
    check: (v) => (PHONE.test(v) ? "" : "Enter a phone number like +1 (555) 010-0199"),
  },
  contact_address: { kind: "text", required: false, max: 300, label: "Address" },
  default_support_name: {
    kind: "text",
    required: true,
    max: 100,
    label: "Support name",
    requiredMessage: "Support name is required",
  },
  admin_registration_enabled: { kind: "bool", required: true, label: "Admin registration" },
  demo_mode: { kind: "bool", required: true, label: "Demo mode" },
  welcome_credit_cents: { kind: "cents", required: false, label: "Welcome credit", max: MAX_WELCOME_CREDIT_CENTS },
  welcome_credit_spendable_cents: {
    kind: "cents",
    required: false,
    label: "Welcome credit spendable before a first purchase",
    max: MAX_WELCOME_CREDIT_CENTS,
  },
  welcome_credits_per_address_per_day: { kind: "count", required: false, label: "Welcome credits per sign-up address a day", max: 1000 },
};

const KEYS = /** @type {(keyof ConsoleSettings)[]} */ (Object.keys(RULES));

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
 * SHOP_DEMO_MODE ("true" or "false"), when set, pins the demo_mode setting on every start
 * (and on the first start, from the 1764300420 migration): the deployment's switch that no
 * console user can override. Unset: the stored value stays. Any other value stops the start.
 * Does nothing while the settings collection does not exist yet (first start: the
 * migration applies it).
 * @param {CoreApp} app
 */
function applyDemoModeEnv(app) {
  const raw = ($os.getenv("SHOP_DEMO_MODE") || "").trim().toLowerCase();
  if (!raw) return;
  if (raw !== "true" && raw !== "false") {
    throw new Error(`SHOP_DEMO_MODE must be "true" or "false", got "${raw}".`);
  }
  /** @type {core.Collection} */
  let collection;
  try {
    collection = app.findCollectionByNameOrId("settings");
  } catch (_) {
    return;
  }
  /** @type {core.Record} */
  let record;
  try {
    record = app.findFirstRecordByData("settings", "key", "demo_mode");
  } catch (_) {
    record = new Record(collection);
    record.set("key", "demo_mode");
  }
  if (!record.isNew() && record.getString("value") === raw) return;
  record.set("value", raw);
  app.save(record);
  app.logger().info("demo_mode set from SHOP_DEMO_MODE", "value", raw);
}

module.exports = { RULES, readSettings, validateSettings, saveSettings, applyDemoModeEnv, MAX_WELCOME_CREDIT_CENTS };
