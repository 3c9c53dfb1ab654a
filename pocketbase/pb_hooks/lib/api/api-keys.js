// @ts-check
// API keys (issue #18): a customer makes, lists, caps and revokes their keys for the developer API
// from a signed-in session (the Go middleware, pocketbase/devapi, refuses these routes to
// keys: a key cannot make keys). A key is psk_live_ + 32 random characters, shown once and
// stored as its SHA-256 hash (hex, as devapi/keys.go looks it up); its first characters are kept
// to tell keys apart. What a key spent this month is the sum of the orders made with it
// (lib/money/spend-cap.js).

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../core/views.js")} */
const views = require(`${__hooks}/lib/core/views.js`);
/** @type {typeof import("../core/changes.js")} */
const changes = require(`${__hooks}/lib/core/changes.js`);
/** @type {typeof import("../activity/activity.js")} */
const activity = require(`${__hooks}/lib/activity/activity.js`);

const KEY_PREFIX = "psk_live_";
const SHOWN_CHARS = KEY_PREFIX.length + 4;
/** @type {typeof import("../core/facts.js")} */
const facts = require(`${__hooks}/lib/core/facts.js`);
/** The most active keys an account may have (the contract's). */
const MAX_ACTIVE = facts.facts().api_keys.max_active;

/**
 * @param {CoreApp} app
 * @param {core.Record} record
 */
function keyView(app, record) {
  const cap = record.getInt("spend_cap_cents");
  return {
    id: record.id,
    name: record.getString("name"),
    prefix: record.getString("prefix"),
    scopes: sql.textList(record.getString("scopes")),
    expires_at: views.iso(record.getString("expires_at")),
    ip_allowlist: sql.textList(record.getString("ip_allowlist")),
    spend_cap_cents: cap > 0 ? cap : null,
    spent_this_month_cents: require(`${__hooks}/lib/money/spend-cap.js`).spentThisMonth(app, record.id),
    last_used_at: views.iso(record.getString("last_used_at")),
    last_used_ip: record.getString("last_used_ip"),
    revoked_at: views.iso(record.getString("revoked_at")),
    created: /** @type {string} */ (views.iso(record.getString("created"))),
  };
}

/**
 * A new key's fields as stored. The request kept to the OpenAPI document before this hook ran
 * (pocketbase/devapi: a name of 1-100 characters, known scopes and at least one, the types,
 * the cap's range, each broken field under its name); what a schema cannot say is checked
 * here, each under its field in one 400: a date in the future, addresses and CIDR ranges.
 * @param {Record<string, unknown>} body
 */
function validateNewKey(body) {
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  const name = api.text(body["name"]);
  const scopesIn = /** @type {string[]} */ (body["scopes"]);
  const scopes = scopesIn.filter((s, i) => scopesIn.indexOf(s) === i);

  let expires = "";
  const expiresIn = body["expires_at"];
  if (typeof expiresIn === "string" && expiresIn !== "") {
    const ms = Date.parse(expiresIn.length === 10 ? `${expiresIn}T00:00:00Z` : expiresIn);
    if (Number.isNaN(ms)) errors["expires_at"] = new ValidationError("validation_invalid_date", "Expiry must be a date, e.g. 2027-01-31");
    else if (ms <= Date.now()) errors["expires_at"] = new ValidationError("validation_past_date", "Expiry must be in the future");
    else expires = new DateTime(new Date(ms).toISOString()).string();
  }

  /** @type {string[]} */
  let allowlist = [];
  const listIn = body["ip_allowlist"];
  if (Array.isArray(listIn)) {
    const parsed = require(`${__hooks}/lib/accounts/ip-allowlist.js`).normaliseList(listIn);
    if ("error" in parsed) errors["ip_allowlist"] = new ValidationError("validation_invalid_value", parsed.error);
    else allowlist = parsed.entries;
  }

  const cap = typeof body["spend_cap_cents"] === "number" ? body["spend_cap_cents"] : 0;
  const fields = Object.keys(errors);
  if (fields.length) throw new BadRequestError(errors[/** @type {string} */ (fields[0])]?.message() ?? "Invalid key", errors);
  return { name, scopes, expires, allowlist, cap };
}

/**
 * GET /api/v1/api-keys -> {items: [ApiKey]}: active keys first, newest first.
 * @param {core.RequestEvent} e
 */
function listRoute(e) {
  const user = api.customer(e);
  const records = e.app.findRecordsByFilter("api_keys", "user = {:user}", "-created", MAX_ACTIVE * 4, 0, { user: user.id });
  const items = records.map((r) => keyView(e.app, /** @type {core.Record} */ (r)));
  items.sort((a, b) => Number(!!a.revoked_at) - Number(!!b.revoked_at));
  return e.json(200, { items });
}

/**
 * POST /api/v1/api-keys {name, scopes, expires_at?, ip_allowlist?, spend_cap_cents?}
 * Idempotency-Key -> 201 {api_key, key}: the key itself only in this answer (and its
 * replays, which keep it sealed). At most the contract's max_active keys. Not a demo account.
 * @param {core.RequestEvent} e
 */
function createRoute(e) {
  const user = api.actingCustomer(e);
  const body = api.jsonBody(e);
  const input = validateNewKey(body);
  return changes.answerChange(e, { userId: user.id, route: "POST /api/v1/api-keys", input, status: 201 }, (txApp) => {
    const active = new DynamicModel({ n: 0 });
    txApp.db().newQuery("SELECT COUNT(*) AS n FROM api_keys WHERE user = {:user} AND revoked_at = ''").bind({ user: user.id }).one(active);
    if (active.n >= MAX_ACTIVE) {
      throw new BadRequestError(
        `You have ${MAX_ACTIVE} active API keys, the most an account may have: revoke one you no longer use first.`,
      );
    }
    const key = KEY_PREFIX + $security.randomString(32);
    const record = new Record(txApp.findCollectionByNameOrId("api_keys"));
    record.load({
      user: user.id,
      name: input.name,
      prefix: key.slice(0, SHOWN_CHARS),
      key_hash: $security.sha256(key),
      scopes: input.scopes,
      expires_at: input.expires,
      ip_allowlist: input.allowlist,
      spend_cap_cents: input.cap,
    });
    txApp.save(record);
    activity.record(txApp, e, user.id, "api_key_created", `Created API key “${input.name}” (${input.scopes.join(", ")})`);
    return { api_key: keyView(txApp, record), key };
  });
}

/**
 * The user's key `id`, or 404.
 * @param {CoreApp} txApp
 * @param {string} id
 * @param {string} userId
 * @returns {core.Record}
 */
function ownKey(txApp, id, userId) {
  return api.ownRecord(txApp, "api_keys", id, userId, "No API key with this id is yours.");
}

/** "$50.00 a month", "no cap". @param {number} cents */
function capText(cents) {
  return cents > 0 ? `${require(`${__hooks}/lib/money/ledger.js`).formatUsd(cents)} a month` : "no cap";
}

/**
 * PATCH /api/v1/api-keys/{id} {spend_cap_cents: number | null}  Idempotency-Key -> the key
 * with its new monthly spend cap (null = none; the range was checked against the contract
 * before this hook). It counts from the start of the month, as spend-cap.js sums it. A
 * revoked key is refused (400); an unchanged cap writes nothing.
 * @param {core.RequestEvent} e
 */
function updateRoute(e) {
  const user = api.actingCustomer(e);
  const id = e.request?.pathValue("id") ?? "";
  const capIn = api.jsonBody(e)["spend_cap_cents"];
  const cap = typeof capIn === "number" ? capIn : 0;
  return changes.answerChange(e, { userId: user.id, route: "PATCH /api/v1/api-keys/{id}", input: { id, cap } }, (txApp) => {
    const record = ownKey(txApp, id, user.id);
    if (record.getString("revoked_at")) {
      throw new BadRequestError("This API key is revoked: it cannot be changed. Create a new key instead.");
    }
    const before = record.getInt("spend_cap_cents");
    if (before !== cap) {
      record.set("spend_cap_cents", cap);
      txApp.save(record);
      const name = record.getString("name");
      activity.record(
        txApp,
        e,
        user.id,
        "api_key_changed",
        `Changed the spend cap of API key “${name}” from ${capText(before)} to ${capText(cap)}`,
      );
    }
    return keyView(txApp, record);
  });
}

/**
 * DELETE /api/v1/api-keys/{id}  Idempotency-Key -> the key, revoked (at once: its next
 * request is refused). Revoking a revoked key answers it as it is.
 * @param {core.RequestEvent} e
 */
function revokeRoute(e) {
  const user = api.actingCustomer(e);
  const id = e.request?.pathValue("id") ?? "";
  return changes.answerChange(e, { userId: user.id, route: "DELETE /api/v1/api-keys/{id}", input: { id } }, (txApp) => {
    const record = ownKey(txApp, id, user.id);
    if (!record.getString("revoked_at")) {
      record.set("revoked_at", new DateTime().string());
      txApp.save(record);
      activity.record(txApp, e, user.id, "api_key_revoked", `Revoked API key “${record.getString("name")}”`);
    }
    return keyView(txApp, record);
  });
}

module.exports = { KEY_PREFIX, keyView, listRoute, createRoute, updateRoute, revokeRoute };
