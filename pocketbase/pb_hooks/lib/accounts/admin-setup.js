// @ts-check
// The first administrator on a real host (issue #17). `pocketbase admin-setup`
// (pocketbase/admin_setup.go) stores a token's SHA-256 in admin_setup_tokens, valid for 30
// minutes and optionally for one e-mail; /console/setup?token=... spends it here. Public
// routes (admin-setup.pb.js), rate limited per IP: 404 for an unknown token, 410 for a used
// or expired one, each with its message. The admin is created verified, onboarded and
// signed in, with the audit row "admin_setup.create" in the same transaction.

/** The command that makes a new link, for the refusals' texts. */
const NEW_LINK = "Make a new one on the server with `proxy-shop admin create <email>` (or `npm run admin:create -- <email>`).";

const MESSAGES = {
  invalid: `This setup link is not valid. ${NEW_LINK}`,
  used: "This setup link has already been used. Sign in to the console with the administrator account it created.",
  expired: `This setup link has expired (links work for 30 minutes). ${NEW_LINK}`,
  emailMismatch: "This setup link is for another email address.",
};

/** A moment as PocketBase stores dates (lib/core/sql.js). */
const dbDate = require(`${__hooks}/lib/core/sql.js`).dbDate;

/**
 * True when a shop admin (a users record with is_admin) exists.
 * @param {CoreApp} app
 */
function adminExists(app) {
  const row = new DynamicModel({ n: 0 });
  app.db().newQuery("SELECT COUNT(*) AS n FROM users WHERE is_admin = TRUE").one(row);
  return row.n > 0;
}

/**
 * @param {core.Record} token
 * @param {string} [now]  dbDate()
 * @returns {"pending" | "used" | "expired"}
 */
function stateOf(token, now = dbDate()) {
  if (token.getString("used_at")) return "used";
  return token.getDateTime("expires_at").string() > now ? "pending" : "expired";
}

/**
 * The refusal for a token that cannot be used: 404 for an unknown one, 410 for a spent one.
 * @param {"invalid" | "used" | "expired"} state
 */
function tokenError(state) {
  const message = MESSAGES[state];
  if (state === "invalid") return new NotFoundError(message, { token: new ValidationError("setup_token_invalid", message) });
  return new ApiError(410, message, { token: new ValidationError(`setup_token_${state}`, message) });
}

/**
 * The pending setup token `token` names, else the refusal saying why.
 * @param {CoreApp} app
 * @param {string} token
 * @returns {core.Record}
 */
function usableToken(app, token) {
  if (!token || token.length > 200) throw tokenError("invalid");
  /** @type {core.Record} */
  let record;
  try {
    record = app.findFirstRecordByData("admin_setup_tokens", "token_hash", $security.sha256(token));
  } catch (_) {
    throw tokenError("invalid");
  }
  const state = stateOf(record);
  if (state !== "pending") throw tokenError(state);
  return record;
}

/**
 * GET /api/setup/status -> {has_admin: boolean}: the one public fact the console's sign-in
 * page needs to explain the setup link.
 * @param {core.RequestEvent} e
 */
function status(e) {
  return e.json(200, { has_admin: adminExists(e.app) });
}

/**
 * POST /api/setup/check {token} -> {valid: true, email: string | null, expires_at}
 * (the token in the body: PocketBase's request log keeps URLs).
 * @param {core.RequestEvent} e
 */
function check(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const token = usableToken(e.app, api.text(api.jsonBody(e)["token"]));
  return e.json(200, {
    valid: true,
    email: token.getString("email") || null,
    expires_at: token.getDateTime("expires_at").string(),
  });
}

/**
 * POST /api/setup/admin {token, first_name, last_name, email, password} -> {token, record}
 *
 * Signed in, like /api/shop/admin-register: a verified, onboarded admin with the shop's
 * password rules. The token is claimed by a conditional UPDATE in the same transaction
 * (single use under concurrency). Refusals: 404/410 as above, 400 fields (e-mail not the
 * link's, e-mail taken, weak password).
 * @param {core.RequestEvent} e
 */
function create(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("./signup.js")} */
  const signup = require(`${__hooks}/lib/accounts/signup.js`);
  /** @type {typeof import("./invitation-links.js")} */
  const links = require(`${__hooks}/lib/accounts/invitation-links.js`);
  /** @type {typeof import("./admin-account.js")} */
  const account = require(`${__hooks}/lib/accounts/admin-account.js`);

  const body = api.jsonBody(e);
  const token = usableToken(e.app, api.text(body["token"]));
  const input = account.adminAccountInput(body);
  const locked = token.getString("email");
  if (locked && locked !== input.email) {
    throw new BadRequestError(MESSAGES.emailMismatch, {
      email: new ValidationError("setup_email_mismatch", MESSAGES.emailMismatch),
    });
  }
  const duplicate = () => signup.emailTaken("An account with this email already exists. Sign in with it instead.");
  if (links.accountExists(e.app, input.email)) throw duplicate();

  const user = account.createByLink(
    e.app,
    {
      table: "admin_setup_tokens",
      id: token.id,
      open: "",
      refused: (txApp, now) =>
        tokenError(/** @type {"used" | "expired"} */ (stateOf(txApp.findRecordById("admin_setup_tokens", token.id), now))),
      duplicate,
      audit: (admin) => ({
        action: "admin_setup.create",
        targetType: "users",
        targetId: admin.id,
        details: { email: input.email, setup_token_id: token.id, link_email: locked || null },
      }),
    },
    input,
  );
  return $apis.recordAuthResponse(e, user, "password", null);
}

module.exports = { MESSAGES, adminExists, status, check, create };
