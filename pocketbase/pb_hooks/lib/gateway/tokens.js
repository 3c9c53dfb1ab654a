// @ts-check
// The console's gateway tokens (System Settings, "Proxy gateway"): list them, make one,
// revoke one. A gateway on another machine (`pocketbase gateway --pb-url URL --token-file F`)
// follows the shop over /api/gateway/* with one (pocketbase/gatewayapi requireToken).
// Every route needs a signed-in shop admin (401 anonymous, 403 otherwise); changes are
// refused in demo mode (403) and write one audit row in their transaction, with the name,
// never the token. The token is answered once and only its SHA-256 is stored.

/**
 * The token format, as pocketbase/gatewayapi makes and checks it (TokenPrefix + TokenLength
 * of TokenAlphabet, stored as hex SHA-256): "gwt_" and 40 of [A-Za-z0-9]. Its
 * tokens_test.go fails when these and Go's part ways.
 */
const TOKEN_PREFIX = "gwt_";
const TOKEN_LENGTH = 40;
const TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const TOKEN_PATTERN = /^gwt_[A-Za-z0-9]{40}$/;

/** The longest name (the collection's max). */
const MAX_NAME = 100;

const MESSAGES = {
  nameRequired: "Name the gateway (1-100 characters), e.g. eu-1.",
  nameTooLong: `The name must be at most ${MAX_NAME} characters.`,
  nameOneLine: "The name must be one line of text, without control characters.",
  nameTaken: "A gateway token with this name already exists: choose another name, or revoke the old token first.",
  notFound: "Gateway token not found (it may have been revoked already).",
};

/** A new token: shown once, never stored. */
function newToken() {
  return TOKEN_PREFIX + $security.randomStringWithAlphabet(TOKEN_LENGTH, TOKEN_ALPHABET);
}

/**
 * What gateway_tokens.token_hash holds for `token`: its SHA-256 in lower-case hex, as Go's hashToken.
 * @param {string} token
 */
function hashToken(token) {
  return $security.sha256(token);
}

/**
 * Validates POST /api/admin/gateway-tokens: {name}, 1-100 characters on one line, unique
 * among the tokens (ignoring case and surrounding spaces).
 * @param {CoreApp} app
 * @param {Record<string, unknown>} body
 * @returns {{name: string}}
 */
function validateCreate(app, body) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  for (const key of Object.keys(body)) {
    if (key !== "name") throw api.fieldError(key, `Unknown field "${key}".`);
  }
  if (body["name"] !== undefined && body["name"] !== null && typeof body["name"] !== "string") {
    throw api.fieldError("name", MESSAGES.nameRequired, "validation_required");
  }
  const name = api.text(body["name"]);
  if (!name) throw api.fieldError("name", MESSAGES.nameRequired, "validation_required");
  if (api.chars(name) > MAX_NAME) throw api.fieldError("name", MESSAGES.nameTooLong, "validation_max_text_constraint");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw api.fieldError("name", MESSAGES.nameOneLine);
  if (nameTaken(app, name)) throw api.fieldError("name", MESSAGES.nameTaken, "validation_not_unique");
  return { name };
}

/**
 * True when a token already has this name (case-insensitive for ASCII, as SQLite's LOWER).
 * @param {CoreApp} app
 * @param {string} name
 */
function nameTaken(app, name) {
  const row = new DynamicModel({ n: 0 });
  app.db().newQuery("SELECT COUNT(*) AS n FROM gateway_tokens WHERE LOWER(TRIM(name)) = LOWER({:name})").bind({ name }).one(row);
  return row.n > 0;
}

/**
 * The shop's address a gateway follows (meta.appURL, which follows SHOP_APP_URL).
 * @param {CoreApp} app
 */
function shopUrl(app) {
  return String(app.settings().meta.appURL || "").replace(/\/+$/, "");
}

/**
 * @typedef {object} GatewayTokenRow
 * @property {string} id
 * @property {string} name
 * @property {string} created
 * @property {string} last_seen_at  "" when never used
 * @property {string} last_address  "" when never used
 * @property {boolean} in_contact  its gateway called the shop within OUT_OF_CONTACT_MS
 */

/**
 * A running gateway calls the shop several times a second and the shop records the call at
 * least every 15 s (pocketbase/gatewayapi touch); a gateway that has not reached the
 * shop for 60 s refuses new connections (its GATEWAY_MAX_STALE_SECONDS). Past this, the
 * shop has not heard from it for longer.
 */
const OUT_OF_CONTACT_MS = 90_000;

/**
 * One page of tokens, newest first (never a token nor its hash).
 * @param {CoreApp} app
 * @param {{page: number, perPage: number, offset: number}} paging
 */
function listTokens(app, paging) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery("SELECT COUNT(*) AS n FROM gateway_tokens").one(count);
  const rows = sql.rowsLike({ id: "", name: "", created: "", last_seen_at: "", last_address: "" });
  app
    .db()
    .newQuery(
      `SELECT id, name, created, COALESCE(last_seen_at, '') AS last_seen_at, COALESCE(last_address, '') AS last_address
         FROM gateway_tokens
        ORDER BY created DESC, id DESC
        LIMIT {:limit} OFFSET {:offset}`,
    )
    .bind({ limit: paging.perPage, offset: paging.offset })
    .all(/** @type {any} */ (rows));
  const now = Date.now();
  /** @type {GatewayTokenRow[]} */
  const items = rows.map((r) => ({
    id: r.id,
    name: r.name,
    created: r.created,
    last_seen_at: r.last_seen_at,
    last_address: r.last_address,
    in_contact: r.last_seen_at !== "" && now - Date.parse(r.last_seen_at.replace(" ", "T")) < OUT_OF_CONTACT_MS,
  }));
  return require(`${__hooks}/lib/core/admin.js`).listPage(items, count.n, paging);
}

/**
 * GET /api/admin/gateway-tokens?page=&perPage= -> {items: [{id, name, created,
 * last_seen_at, last_address, in_contact}], page, perPage, totalItems, totalPages}: newest
 * first; last_seen_at and last_address are "" for a token never used; in_contact: its
 * gateway called the shop in the last 90 s (one out of contact for 60 s refuses new
 * connections). Never the token nor its hash.
 * @param {core.RequestEvent} e
 */
function list(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  admin.requireAdmin(e);
  return e.json(200, listTokens(e.app, admin.paging(e, 100)));
}

/**
 * POST /api/admin/gateway-tokens {name} -> {id, name, token, pb_url}
 *
 * token = "gwt_" + 40 random [A-Za-z0-9] (only its SHA-256 is stored: it is never shown
 * again); pb_url = the shop's address (meta.appURL) for `pocketbase gateway --pb-url`. 400
 * naming the field for a missing, too long or taken name. Audit "gateway_token.create" {name}.
 * @param {core.RequestEvent} e
 */
function create(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  admin.requireAdminWrite(e);
  const body = require(`${__hooks}/lib/core/api.js`).jsonBody(e);
  const made = admin.auditedChange(e, (txApp) => {
    // Checked inside the transaction, so two calls with one name cannot both pass.
    const { name } = validateCreate(txApp, body);
    const token = newToken();
    const record = new Record(txApp.findCachedCollectionByNameOrId("gateway_tokens"));
    record.set("name", name);
    record.set("token_hash", hashToken(token));
    txApp.save(record);
    return {
      result: { id: record.id, name, token, pb_url: shopUrl(txApp) },
      audit: { action: "gateway_token.create", targetType: "gateway_tokens", targetId: record.id, details: { name } },
    };
  });
  return e.json(200, made);
}

/**
 * DELETE /api/admin/gateway-tokens/{id} -> {id, name}
 *
 * Deletes the token: the next /api/gateway call with it is 401. 404 for an unknown (or
 * already revoked) one. Audit "gateway_token.revoke" {name, last_seen_at}.
 * @param {core.RequestEvent} e
 */
function revoke(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  admin.requireAdminWrite(e);
  const id = e.request?.pathValue("id") ?? "";
  const revoked = admin.auditedChange(e, (txApp) => {
    /** @type {core.Record} */
    let token;
    try {
      token = txApp.findRecordById("gateway_tokens", id);
    } catch (_) {
      throw new NotFoundError(MESSAGES.notFound);
    }
    const name = token.getString("name");
    const lastSeen = token.getString("last_seen_at");
    txApp.delete(token);
    return {
      result: { id, name },
      audit: {
        action: "gateway_token.revoke",
        targetType: "gateway_tokens",
        targetId: id,
        details: { name, last_seen_at: lastSeen || null },
      },
    };
  });
  return e.json(200, revoked);
}

module.exports = { list, create, revoke, newToken, hashToken, TOKEN_PREFIX, TOKEN_LENGTH, TOKEN_PATTERN, MESSAGES, OUT_OF_CONTACT_MS };
