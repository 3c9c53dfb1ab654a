// @ts-check
// The customer's own activity log (issue #18): Settings → Activity and GET /api/v1/activity.
// One row per thing that happened to an account: sign-ins, password and e-mail changes, IP
// allowlist changes, API keys made/spent with/revoked, webhook changes, purchases, renewals
// and credential rotations (collection account_activity, 1764800300_account_activity.js).
//
// Writing a row, from any route or job:
//
//   require(`${__hooks}/lib/activity/activity.js`).record(app, e, userId, kind, summary, data)
//
//   app      the app to write with: pass the transaction's txApp inside runInTransaction, so
//            the row commits or rolls back with the change it describes.
//   e        the core.RequestEvent of the request (its address, user agent and the API key
//            it was made with, e.get("api_key"), are stored), or null from a job or for a
//            change the customer did not make themselves (e.g. a shop admin's).
//   userId   the account the row belongs to (users id).
//   kind     one of the contract's kinds (lib/facts.json; an unknown kind throws: a
//            programming error, caught by tests).
//   summary  the sentence the customer reads, e.g. "Bought 3 Residential proxies in DE",
//            'Created API key “CI”' (cut to 300 characters).
//   data     optional small JSON object for machines (ids, amounts); over 2,000 characters
//            of JSON it is stored as {truncated: true}.
//
// It writes one row by SQL (no record hooks) and never throws for a too-long text, a
// missing header or an odd API key value: every text is cut to its column's size.

/** @type {typeof import("../core/facts.js")} */
const facts = require(`${__hooks}/lib/core/facts.js`);

/** @typedef {string} ActivityKind  one of the contract's activity kinds (facts().activity_kinds) */

/** The most characters a stored field holds (the collection's max). */
const MAX = { summary: 300, ip: 45, user_agent: 300, api_key_id: 15, api_key_name: 100 };
/** The most characters of data's JSON. */
const MAX_DATA = 2000;

/**
 * `value` as text cut to `max` characters (Unicode code points, as PocketBase counts them).
 * @param {unknown} value
 * @param {number} max
 */
function clip(value, max) {
  const text = typeof value === "string" ? value : value === null || value === undefined ? "" : String(value);
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}

/**
 * Where a request came from and the API key it was made with (empty texts when `e` is null
 * or something cannot be read).
 * @param {core.RequestEvent | null | undefined} e
 */
function originOf(e) {
  const out = { ip: "", user_agent: "", api_key_id: "", api_key_name: "" };
  if (!e) return out;
  try {
    out.ip = clip(e.realIP(), MAX.ip);
  } catch (_) {
    out.ip = "";
  }
  try {
    // requestInfo(), not e.request: a record event (sign-in, update) wraps the request event,
    // and goja does not reach the wrapped event's fields (e.request is undefined there).
    out.user_agent = clip(e.requestInfo().headers["user_agent"] ?? "", MAX.user_agent);
  } catch (_) {
    out.user_agent = "";
  }
  try {
    /** @type {any} */
    const key = e.get("api_key");
    if (key && typeof key === "object") {
      out.api_key_id = clip(key.id ?? "", MAX.api_key_id);
      out.api_key_name = clip(key.name ?? "", MAX.api_key_name);
    }
  } catch (_) {
    out.api_key_id = "";
    out.api_key_name = "";
  }
  return out;
}

/**
 * Writes one activity row for `userId` (see the top of this file).
 * @param {CoreApp} app
 * @param {core.RequestEvent | null | undefined} e
 * @param {string} userId
 * @param {ActivityKind} kind
 * @param {string} summary
 * @param {Record<string, unknown>} [data]
 */
function record(app, e, userId, kind, summary, data) {
  if (facts.facts().activity_kinds.indexOf(kind) < 0) throw new Error(`Unknown account activity kind: ${String(kind)}`);
  let json = "{}";
  try {
    json = JSON.stringify(data ?? {}) ?? "{}";
  } catch (_) {
    json = "{}";
  }
  if (json.length > MAX_DATA) json = '{"truncated":true}';
  const origin = originOf(e);
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  app
    .db()
    .newQuery(
      `INSERT INTO account_activity (id, user, kind, summary, ip, user_agent, api_key_id, api_key_name, data, created)
       VALUES ({:id}, {:user}, {:kind}, {:summary}, {:ip}, {:agent}, {:keyId}, {:keyName}, {:data}, {:created})`,
    )
    .bind({
      id: sql.newId(),
      user: userId,
      kind,
      summary: clip(summary, MAX.summary),
      ip: origin.ip,
      agent: origin.user_agent,
      keyId: origin.api_key_id,
      keyName: origin.api_key_name,
      data: json,
      created: sql.dbDate(),
    })
    .execute();
}

/**
 * `record`, for a hook that runs after its answer is written (a sign-in, a password
 * change): a failed write is logged, never thrown at a request that has succeeded.
 * @param {CoreApp} app
 * @param {core.RequestEvent | null} e
 * @param {string} userId
 * @param {ActivityKind} kind
 * @param {string} summary
 * @param {Record<string, unknown>} [data]
 */
function recordQuietly(app, e, userId, kind, summary, data) {
  try {
    record(app, e, userId, kind, summary, data);
  } catch (err) {
    app.logger().error("Account activity not recorded", "user", userId, "kind", kind, "error", String(err));
  }
}

// ---- The hooks (activity.pb.js) ---------------------------------------------------

/** How each sign-in method reads in the log. */
const SIGN_IN_SUMMARY = /** @type {Record<string, string>} */ ({
  password: "Signed in with a password",
  otp: "Signed in with a one-time code",
  oauth2: "Signed in with OAuth2",
});

/**
 * onRecordAuthRequest ("users"): after a successful sign-in (password, one-time code,
 * OAuth2) a sign_in row with the address and agent. A token refresh or an impersonation
 * (no auth method) is not a sign-in; a sign-in that stops short (refused, MFA asked) throws
 * from e.next() and writes nothing.
 * @param {core.RecordAuthRequestEvent} e
 */
function onSignIn(e) {
  e.next();
  const user = e.record;
  if (!user || !e.authMethod || user.collection().name !== "users") return;
  let summary = SIGN_IN_SUMMARY[e.authMethod] ?? "Signed in";
  if (e.authMethod === "oauth2") {
    try {
      const provider = String(e.requestInfo().body["provider"] ?? "");
      if (/^[a-z0-9_-]{1,40}$/i.test(provider)) summary = `Signed in with ${provider}`;
    } catch (_) {
      // The generic summary stays.
    }
  }
  recordQuietly(e.app, e, user.id, "sign_in", summary, { method: e.authMethod });
}

/**
 * onRecordUpdateRequest ("users"): a new password set through the records API (the
 * settings form, with oldPassword) is a password_changed row once saved. A superuser's
 * change is the shop's, not the customer's: no address or agent.
 * @param {core.RecordRequestEvent} e
 */
function onUserUpdate(e) {
  const record = e.record;
  /** @type {unknown} */
  let password;
  try {
    password = e.requestInfo().body["password"];
  } catch (_) {
    password = undefined;
  }
  e.next();
  if (!record || typeof password !== "string" || password === "") return;
  const own = e.auth?.id === record.id && e.auth?.collection().name === "users";
  recordQuietly(e.app, own ? e : null, record.id, "password_changed", own ? "Changed the password" : "Password changed by the shop");
}

/**
 * onRecordConfirmPasswordResetRequest ("users"): a password set with an e-mailed link.
 * @param {core.RecordConfirmPasswordResetRequestEvent} e
 */
function onPasswordReset(e) {
  e.next();
  if (!e.record) return;
  recordQuietly(e.app, e, e.record.id, "password_changed", "Set a new password with an e-mailed link");
}

/**
 * onRecordConfirmEmailChangeRequest ("users"): the new address confirmed from its link.
 * @param {core.RecordConfirmEmailChangeRequestEvent} e
 */
function onEmailChangeConfirmed(e) {
  const record = e.record;
  const from = record ? record.email() : "";
  const to = String(e.newEmail ?? "");
  e.next();
  if (!record) return;
  recordQuietly(e.app, e, record.id, "email_changed", `Changed the e-mail address from ${from} to ${to}`, { from, to });
}

// ---- GET /api/v1/activity ---------------------------------------------------------

/**
 * The list's filters checked (kind, from, to): 400s name the field.
 * @param {core.RequestEvent} e
 */
function listParams(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const get = (/** @type {string} */ name) => api.queryParam(e, name);
  const kind = api.queryChoice(e, "kind", facts.facts().activity_kinds);

  const example = "an ISO 8601 date or date and time, e.g. 2026-11-01 or 2026-11-01T00:00:00Z";
  const fromText = get("from");
  const toText = get("to");
  const from = fromText ? api.parseMoment(fromText) : null;
  if (from !== null && Number.isNaN(from)) throw api.fieldError("from", `from must be ${example}.`);
  const to = toText ? api.parseMoment(toText) : null;
  if (to !== null && Number.isNaN(to)) throw api.fieldError("to", `to must be ${example}.`);
  if (from !== null && to !== null && from >= to) throw api.fieldError("from", "from must be before to.");

  return { kind, from, to };
}

/**
 * GET /api/v1/activity?kind=&from=&to=&cursor=&limit= -> {items: [{id, kind, summary, ip,
 * user_agent, api_key_name, created}], next_cursor}: the signed-in customer's own activity,
 * newest first (created, then id). `kind` one of the kinds; `from` inclusive and `to`
 * exclusive (ISO 8601, a date alone is its UTC midnight); `limit` 1-100 (default 50) and
 * `cursor` (the previous page's next_cursor; null on the last page) as every list's
 * (lib/core/paging.js). 400 naming the field otherwise; 401 signed out. Scope "read" for an
 * API key.
 * @param {core.RequestEvent} e
 */
function listActivity(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const user = api.customer(e);
  /** @type {typeof import("../core/paging.js")} */
  const paging = require(`${__hooks}/lib/core/paging.js`);
  const params = listParams(e);
  const { limit, after } = paging.pageParams(e);
  let where = "user = {:user}";
  if (params.kind) where += " AND kind = {:kind}";
  if (params.from !== null) where += " AND created >= {:from}";
  if (params.to !== null) where += " AND created < {:to}";
  const rows = sql.rowsLike({ id: "", kind: "", summary: "", ip: "", user_agent: "", api_key_name: "", created: "" });
  e.app
    .db()
    .newQuery(
      `SELECT id, kind, summary, ip, user_agent, api_key_name, created FROM account_activity
       WHERE ${where}${paging.afterSql(after)} ORDER BY created DESC, id DESC LIMIT {:limit}`,
    )
    .bind({
      user: user.id,
      kind: params.kind,
      from: params.from === null ? "" : sql.dbDate(params.from),
      to: params.to === null ? "" : sql.dbDate(params.to),
      limit: limit + 1,
      afterCreated: after?.created ?? "",
      afterId: after?.id ?? "",
    })
    .all(rows);
  return e.json(
    200,
    paging.pageOf(rows, limit, (row) => ({ ...row, created: require(`${__hooks}/lib/core/views.js`).rfc3339(row.created) })),
  );
}

module.exports = {
  record,
  recordQuietly,
  onSignIn,
  onUserUpdate,
  onPasswordReset,
  onEmailChangeConfirmed,
  listActivity,
};
