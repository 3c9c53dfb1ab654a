// @ts-check
// The keys of the `settings` collection that the console's System Settings edits, each
// with its rule: required or not, its kind (text, on/off, cents, a count), its limits and
// the spec's messages. Booleans are stored as "true"/"false" and the welcome credit as
// whole cents, like the rows the default-content migration writes (lib/default-settings.json).

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Digits with the usual separators, optionally an extension: "+1 (555) 010-0199 ext. 12". */
const PHONE = /^\+?[0-9][0-9 ()./-]{2,}(?:\s*(?:ext\.?|x)\s*[0-9]{1,6})?$/i;
/** An https address, or a path on this site ("/logo.svg", not "//host"). */
const LOGO_URL = /^(?:https:\/\/[^\s/]+(?:\/\S*)?|\/(?!\/)\S*)$/i;

/** The largest welcome credit (cents) the shop grants (the catalog's). */
const MAX_WELCOME_CREDIT_CENTS = require(`${__hooks}/lib/catalog.json`).welcome_credit.max_cents;
/**
 * A check and normalization of a list of IP addresses or CIDR ranges typed as text (comma,
 * space or newline separated): stored ", " separated, IPv6 lower-case without brackets.
 * @param {string} label
 * @param {"address" | "range"} kind
 */
function ipList(label, kind) {
  /** @type {typeof import("../proxies/endpoints.js")} */
  const endpoints = require(`${__hooks}/lib/proxies/endpoints.js`);
  const good = kind === "address" ? endpoints.isIp : endpoints.isCidr;
  const example = kind === "address" ? "203.0.113.10, 2001:db8::10" : "10.0.0.0/8, 2001:db8::/32";
  return {
    check: (/** @type {string} */ v) => {
      const bad = endpoints.listItems(v).filter((item) => !good(item));
      if (bad.length === 0) return "";
      const what = kind === "address" ? "an IP address" : "a CIDR range (address/prefix)";
      return `${label}: ${bad.slice(0, 3).join(", ")} ${bad.length === 1 ? "is not" : "are not"} ${what}; write them like ${example}, or leave it empty`;
    },
    normalize: (/** @type {string} */ v) => endpoints.listItems(v).join(", "),
  };
}

/** The most welcome credits one sign-up address may get a day (the catalog's). */
const MAX_PER_ADDRESS_PER_DAY = require(`${__hooks}/lib/catalog.json`).welcome_credit.max_per_address_per_day;

/**
 * @typedef {object} ConsoleSettings  what GET/PUT /api/admin/settings answer (and PUT takes)
 * @property {string} site_name
 * @property {string} site_description
 * @property {string} primary_color
 * @property {string} logo_url
 * @property {string} contact_email
 * @property {string} contact_phone
 * @property {string} contact_address
 * @property {string} support_hours  shown on every public page that states them
 * @property {string} default_support_name
 * @property {string} staff_notification_email  new tickets and contact messages are mailed here ("" = contact_email)
 * @property {boolean} admin_registration_enabled
 * @property {boolean} demo_mode
 * @property {number} welcome_credit_cents
 * @property {number} welcome_credit_spendable_cents  how much of it buys proxies before a first Stripe payment
 * @property {number} welcome_credits_per_address_per_day  0 = no limit
 * @property {string} gateway_public_host  the name customers connect to the gateway by ("" = SHOP_APP_URL's host)
 * @property {string} gateway_bind_addresses  local IP addresses Generate spreads direct proxies over, ", " separated ("" = none)
 * @property {string} gateway_allowed_ranges  CIDR ranges the gateway may dial even off loopback, ", " separated ("" = none)
 * @property {number} upstream_offline_after_seconds  how long an upstream keeps failing before it leaves stock (lib/proxies/upstream-health.js)
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
    check: (v) => (require(`${__hooks}/lib/core/api.js`).isEmail(v) ? "" : "Valid email is required"),
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
  support_hours: {
    kind: "text",
    required: false,
    max: 100,
    label: "Support hours",
    check: (v) => (v === "" ? "Support hours are required" : ""),
  },
  default_support_name: {
    kind: "text",
    required: true,
    max: 100,
    label: "Support name",
    requiredMessage: "Support name is required",
  },
  staff_notification_email: {
    kind: "text",
    required: false,
    max: 255,
    label: "Staff notification email",
    check: (v) =>
      v === "" || require(`${__hooks}/lib/core/api.js`).isEmail(v) ? "" : "Staff notification email must be a valid email, or empty",
    normalize: (v) => v.toLowerCase(),
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
  welcome_credits_per_address_per_day: {
    kind: "count",
    required: false,
    label: "Welcome credits per sign-up address a day",
    max: MAX_PER_ADDRESS_PER_DAY,
  },
  gateway_public_host: {
    kind: "text",
    required: false,
    max: 253,
    label: "Gateway public host",
    check: (v) => {
      /** @type {typeof import("../proxies/endpoints.js")} */
      const endpoints = require(`${__hooks}/lib/proxies/endpoints.js`);
      return v === "" || endpoints.hostProblem(endpoints.normalizeHost(v)) === ""
        ? ""
        : "Gateway public host must be a host name or an IP address (like proxy.example.com), or empty for the shop's own host";
    },
    normalize: (v) => require(`${__hooks}/lib/proxies/endpoints.js`).normalizeHost(v),
  },
  gateway_bind_addresses: {
    kind: "text",
    required: false,
    max: 4000,
    label: "Gateway bind addresses",
    ...ipList("Gateway bind addresses", "address"),
  },
  gateway_allowed_ranges: {
    kind: "text",
    required: false,
    max: 4000,
    label: "Gateway allowed ranges",
    ...ipList("Gateway allowed ranges", "range"),
  },
  upstream_offline_after_seconds: {
    kind: "count",
    required: false,
    label: "Failing upstreams leave stock after (seconds)",
    max: 86400,
  },
};

const KEYS = /** @type {(keyof ConsoleSettings)[]} */ (Object.keys(RULES));

module.exports = { RULES, KEYS };
