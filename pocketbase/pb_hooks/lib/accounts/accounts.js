// @ts-check
// Account helpers for accounts.pb.js: sign-up validation, referral linking and the
// settings that come from the environment. Required inside each handler (handlers
// are isolated; see docs in /work/shared/notes/pocketbase.md).

/** Marker a sign-up sets on the new record so the create hook leaves password_set false. */
const SIGNUP_MARKER = "__shop_signup";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const REF_CODE = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * @typedef {{ first_name: string, last_name: string, email: string, country: string, ref: string }} SignupInput
 */

/**
 * @param {unknown} value
 * @returns {string}
 */
function str(value) {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Validates a sign-up body like the sign-up form (spec section 5). Throws a 400 with
 * per-field messages.
 * @param {Record<string, unknown>} body
 * @returns {SignupInput}
 */
function validateSignup(body) {
  const countries = require(`${__hooks}/lib/countries.json`);
  const input = {
    first_name: str(body["first_name"]),
    last_name: str(body["last_name"]),
    email: str(body["email"]).toLowerCase(),
    country: str(body["country"]),
    ref: str(body["ref"]),
  };
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  if (!EMAIL.test(input.email) || input.email.length > 255) {
    errors["email"] = new ValidationError("validation_invalid_email", "Please enter a valid email address");
  }
  const { chars } = require(`${__hooks}/lib/core/api.js`);
  if (chars(input.first_name) < 2 || chars(input.first_name) > 100) {
    errors["first_name"] = new ValidationError("validation_length", "First name must be at least 2 characters");
  }
  if (chars(input.last_name) < 2 || chars(input.last_name) > 100) {
    errors["last_name"] = new ValidationError("validation_length", "Last name must be at least 2 characters");
  }
  if (countries.indexOf(input.country) < 0) {
    errors["country"] = new ValidationError("validation_country", "Please select your country");
  }
  if (Object.keys(errors).length > 0) {
    throw new BadRequestError("Please check the highlighted fields.", errors);
  }
  if (!REF_CODE.test(input.ref)) input.ref = "";
  return input;
}

/**
 * Refuses a password a client chose (settings form, reset link) unless it follows the
 * forms' rules: at least 8 characters, an uppercase letter, a digit and a special
 * character. Throws a 400 whose data.password carries the first broken rule's message
 * (code "weak_password"), like the web app's own validation.
 * @param {unknown} pw
 */
function assertStrongPassword(pw) {
  /** @type {{ pattern: string, message: string }[]} */
  const rules = require(`${__hooks}/lib/password-rules.json`);
  const value = typeof pw === "string" ? pw : "";
  for (const rule of rules) {
    if (!new RegExp(rule.pattern).test(value)) {
      throw new BadRequestError(rule.message, { password: new ValidationError("weak_password", rule.message) });
    }
  }
}

/**
 * Links a new account to the affiliate whose code is `code` (case-insensitive): one
 * pending referral row with no commission. Unknown codes are ignored. total_referrals
 * is not touched here: it counts only referred users who have verified their e-mail
 * (recountReferrals, on verification). Must run inside the sign-up transaction.
 * @param {CoreApp} txApp
 * @param {core.Record} user
 * @param {string} code
 * @returns {boolean} whether a referral was created
 */
function linkReferral(txApp, user, code) {
  if (!code) return false;
  /** @type {core.Record} */
  let affiliate;
  try {
    affiliate = txApp.findFirstRecordByFilter("affiliates", "code = {:code}", { code: code.toUpperCase() });
  } catch (_) {
    return false;
  }
  const referral = new Record(txApp.findCachedCollectionByNameOrId("referrals"));
  referral.set("affiliate_id", affiliate.id);
  referral.set("referred_user_id", user.id);
  referral.set("commission_cents", 0);
  referral.set("status", "pending");
  txApp.save(referral);
  return true;
}

/**
 * Sets affiliates.total_referrals of the affiliate that referred `userId` (if any) to
 * the number of its referrals whose referred user has a verified e-mail. Idempotent, so
 * a verified flag toggled back and forth never counts twice.
 * @param {CoreApp} txApp
 * @param {string} userId  the referred user
 */
function recountReferrals(txApp, userId) {
  /** @type {core.Record} */
  let referral;
  try {
    referral = txApp.findFirstRecordByFilter("referrals", "referred_user_id = {:userId}", { userId });
  } catch (_) {
    return; // not referred by anybody
  }
  recountAffiliate(txApp, referral.getString("affiliate_id"));
}

/**
 * Sets the affiliate's total_referrals to its number of referrals with a verified
 * referred user. A missing affiliate (deleted meanwhile) is ignored.
 * @param {CoreApp} txApp
 * @param {string} affiliateId
 */
function recountAffiliate(txApp, affiliateId) {
  /** @type {core.Record} */
  let affiliate;
  try {
    affiliate = txApp.findRecordById("affiliates", affiliateId);
  } catch (_) {
    return;
  }
  const row = new DynamicModel({ n: 0 });
  txApp
    .db()
    .newQuery(
      "SELECT COUNT(*) AS n FROM referrals r JOIN users u ON u.id = r.referred_user_id WHERE r.affiliate_id = {:affiliateId} AND u.verified = TRUE",
    )
    .bind({ affiliateId })
    .one(row);
  if (affiliate.getInt("total_referrals") !== row.n) {
    affiliate.set("total_referrals", row.n);
    txApp.save(affiliate);
  }
}

/**
 * True when this request would verify an account made by sign-up (no password of its own)
 * without holding a session of that account: the e-mailed link or code proves the mailbox,
 * but nothing ties its owner to whoever signed up with the address. Such a verification must
 * end every earlier session and drop the referral the sign-up chose (security review #13,
 * finding 3).
 * @param {core.RequestEvent} e
 * @param {core.Record} user
 */
function verifiesWithoutSignupSession(e, user) {
  if (user.getBool("verified") || user.getBool("password_set")) return false;
  const auth = e.auth;
  return !(auth && auth.collection().name === "users" && auth.id === user.id);
}

/**
 * Deletes the referral a sign-up made for `userId` (the affiliate's counts follow on commit,
 * accounts.pb.js). Inside the caller's transaction.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {boolean} whether there was one
 */
function dropSignupReferral(txApp, userId) {
  const referrals = txApp.findRecordsByFilter("referrals", "referred_user_id = {:userId}", "", 0, 0, { userId });
  for (const referral of referrals) if (referral) txApp.delete(referral);
  return referrals.length > 0;
}

/** The largest welcome credit the setting may grant ($100), so a typo cannot give away more. */
const MAX_WELCOME_CREDIT_CENTS = 10000;

/**
 * The welcome credit in cents from the welcome_credit_cents setting (0 = off).
 * @param {CoreApp} app
 */
function welcomeCreditCents(app) {
  return Math.min(intSetting(app, "welcome_credit_cents", 0), MAX_WELCOME_CREDIT_CENTS);
}

/**
 * A whole-number setting (0 when missing or not a number; never below 0).
 * @param {CoreApp} app
 * @param {string} key
 * @param {number} fallback  when the row is missing
 */
function intSetting(app, key, fallback) {
  /** @type {string} */
  let raw;
  try {
    raw = app.findFirstRecordByData("settings", "key", key).getString("value");
  } catch (_) {
    return fallback;
  }
  const value = parseInt(raw, 10);
  return value > 0 ? value : 0;
}

/**
 * How many accounts that signed up from one address may get the welcome credit in one day
 * (UTC): the welcome_credits_per_address_per_day setting, 0 = no limit.
 * @param {CoreApp} app
 */
function welcomeCreditsPerAddressPerDay(app) {
  return intSetting(app, "welcome_credits_per_address_per_day", 3);
}

/**
 * The number of welcome credits granted today (UTC) to other accounts that signed up from
 * `address`.
 * @param {CoreApp} txApp
 * @param {string} address
 * @param {string} userId  left out of the count
 */
function welcomeCreditsFromAddressToday(txApp, address, userId) {
  const today = new DateTime().string().slice(0, 10) + " 00:00:00.000Z";
  const row = new DynamicModel({ n: 0 });
  txApp
    .db()
    .newQuery(
      `SELECT COUNT(*) AS n FROM transactions t JOIN users u ON u.id = t.user_id
       WHERE t.reference = 'welcome' AND t.created >= {:today} AND u.signup_ip = {:address} AND u.id != {:userId}`,
    )
    .bind({ today, address, userId })
    .one(row);
  return row.n;
}

/**
 * Grants the welcome credit once per account (a CREDIT ledger row with the reference
 * "welcome"), inside the transaction that verifies the account's e-mail. An account that
 * signed up from an address whose accounts already got welcome_credits_per_address_per_day
 * credits today gets none (logged; the account works normally).
 * @param {CoreApp} txApp
 * @param {string} userId
 */
function grantWelcomeCredit(txApp, userId) {
  /** @type {typeof import("../money/ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  const cents = welcomeCreditCents(txApp);
  if (cents === 0 || ledger.hasReference(txApp, userId, "welcome")) return;
  const limit = welcomeCreditsPerAddressPerDay(txApp);
  if (limit > 0) {
    /** @type {string} */
    let address = "";
    try {
      address = txApp.findRecordById("users", userId).getString("signup_ip");
    } catch (_) {
      address = "";
    }
    if (address && welcomeCreditsFromAddressToday(txApp, address, userId) >= limit) {
      txApp
        .logger()
        .warn(
          "Welcome credit withheld: its sign-up address already had the daily number of welcome credits",
          "user",
          userId,
          "signup_ip",
          address,
          "limit",
          limit,
        );
      return;
    }
  }
  ledger.applyLedgerEntry(txApp, { userId, type: "CREDIT", amountCents: cents, description: "Welcome credit", reference: "welcome" });
}

/**
 * A user's welcome credit and the part of it that may not be spent now: what they were
 * granted minus what welcome_credit_spendable_cents lets them spend, while they have made no
 * Stripe payment (paid, or only partly refunded); nothing is held once they have, or when
 * they got no welcome credit.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {{ grantedCents: number, lockedCents: number }}
 */
function welcomeCreditHold(txApp, userId) {
  const row = new DynamicModel({ welcome: 0, paid: 0 });
  txApp
    .db()
    .newQuery(
      `SELECT
         (SELECT COALESCE(SUM(amount_cents), 0) FROM transactions WHERE user_id = {:userId} AND reference = 'welcome') AS welcome,
         (SELECT COUNT(*) FROM payments WHERE user_id = {:userId} AND provider = 'stripe' AND status IN ('paid', 'partially_refunded')) AS paid`,
    )
    .bind({ userId })
    .one(row);
  if (row.welcome <= 0 || row.paid > 0) return { grantedCents: row.welcome, lockedCents: 0 };
  const spendable = intSetting(txApp, "welcome_credit_spendable_cents", MAX_WELCOME_CREDIT_CENTS);
  return { grantedCents: row.welcome, lockedCents: Math.max(0, row.welcome - spendable) };
}

/**
 * The part of a user's balance that may not be spent now (welcomeCreditHold): purchases,
 * renewals and automatic renewals keep the balance at or above it.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {number} cents
 */
function lockedWelcomeCents(txApp, userId) {
  return welcomeCreditHold(txApp, userId).lockedCents;
}

/**
 * Refuses (400, nothing charged: the caller's transaction rolls back) a debit that left the
 * balance below the locked part of the welcome credit (welcomeCreditHold).
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {number} balanceCents  the balance after the debit
 * @param {string} field  the request field the message belongs to
 */
function assertWelcomeCreditRule(txApp, userId, balanceCents, field) {
  const { grantedCents, lockedCents } = welcomeCreditHold(txApp, userId);
  if (lockedCents <= 0 || balanceCents >= lockedCents) return;
  /** @type {typeof import("../money/ledger.js")} */
  const { formatUsd } = require(`${__hooks}/lib/money/ledger.js`);
  const spendable = grantedCents - lockedCents;
  const message =
    spendable > 0
      ? `Only ${formatUsd(spendable)} of your ${formatUsd(grantedCents)} welcome credit can be spent before your first credit purchase: buy credits, then try again.`
      : `Your ${formatUsd(grantedCents)} welcome credit can be spent after your first credit purchase: buy credits, then try again.`;
  throw new BadRequestError(message, { [field]: new ValidationError("welcome_credit_locked", message) });
}

/**
 * Applies the mail settings that come from the environment on every start (sender and
 * SMTP; PocketBase has no env vars for them), SHOP_RATE_LIMIT_SCALE (test harnesses
 * only) and SHOP_AUTH_RATE_LIMIT when set. The app URL, trusted proxy and default rate
 * limits are the backend's (app-settings, lib/settings/rate-limits.js).
 * @param {CoreApp} app
 */
function applyEnvSettings(app) {
  const env = (/** @type {string} */ name) => ($os.getenv(name) || "").trim();
  const settings = app.settings();
  // SHOP_RATE_LIMIT_SCALE (test harnesses only) first; SHOP_AUTH_RATE_LIMIT wins over it.
  require(`${__hooks}/lib/settings/rate-limits.js`).applyRateLimitScale(settings);

  if (env("MAIL_FROM")) settings.meta.senderAddress = env("MAIL_FROM");
  if (env("MAIL_FROM_NAME")) settings.meta.senderName = env("MAIL_FROM_NAME");

  if (env("SMTP_HOST")) {
    settings.smtp.enabled = true;
    settings.smtp.host = env("SMTP_HOST");
    settings.smtp.port = parseInt(env("SMTP_PORT") || "587", 10);
    settings.smtp.username = env("SMTP_USERNAME");
    settings.smtp.password = env("SMTP_PASSWORD");
    settings.smtp.tls = env("SMTP_TLS") === "true";
    settings.smtp.authMethod = env("SMTP_AUTH_METHOD") === "LOGIN" ? "LOGIN" : "PLAIN";
    if (env("SMTP_LOCAL_NAME")) settings.smtp.localName = env("SMTP_LOCAL_NAME");
  }

  // SHOP_AUTH_RATE_LIMIT = sign-in attempts (password or code) per client IP a minute;
  // mails (codes, password links) get half. Put ahead of the defaults (first label wins).
  const perMinute = parseInt(env("SHOP_AUTH_RATE_LIMIT"), 10);
  if (perMinute > 0) {
    const mails = Math.max(1, Math.floor(perMinute / 2));
    const ours = [
      { label: "*:authWithPassword", audience: "", duration: 60, maxRequests: perMinute },
      { label: "*:authWithOTP", audience: "", duration: 60, maxRequests: perMinute },
      { label: "*:requestOTP", audience: "", duration: 60, maxRequests: mails },
      { label: "*:requestPasswordReset", audience: "", duration: 60, maxRequests: mails },
      { label: "POST /api/shop/signup", audience: "", duration: 60, maxRequests: perMinute },
    ];
    const labels = ours.map((r) => r.label);
    const kept = [];
    for (const rule of settings.rateLimits.rules) {
      if (labels.indexOf(rule.label) < 0) {
        kept.push({ label: rule.label, audience: rule.audience, duration: rule.duration, maxRequests: rule.maxRequests });
      }
    }
    settings.rateLimits.rules = /** @type {any} */ (ours.concat(kept));
    settings.rateLimits.enabled = true;
  }

  app.save(settings);
}

module.exports = {
  SIGNUP_MARKER,
  verifiesWithoutSignupSession,
  dropSignupReferral,
  assertStrongPassword,
  validateSignup,
  linkReferral,
  recountReferrals,
  recountAffiliate,
  grantWelcomeCredit,
  welcomeCreditsPerAddressPerDay,
  lockedWelcomeCents,
  assertWelcomeCreditRule,
  applyEnvSettings,
};
