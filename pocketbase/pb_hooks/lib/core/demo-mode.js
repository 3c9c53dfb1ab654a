// @ts-check
// Demo mode (the demo_mode setting): the console is read-only and the demo accounts, whose
// passwords are published, cannot change themselves or spend (security review #13,
// finding 5). SHOP_DEMO_MODE pins the setting on every start; no console user can switch
// it off.

/** @type {typeof import("./settings.js")} */
const values = require(`${__hooks}/lib/core/settings.js`);

const DEMO_MODE_MESSAGE = "Demo mode is on: the console is read-only and changes are not saved.";
/** What a demo account is told when it tries to change itself or buy while demo mode is on. */
const DEMO_ACCOUNT_MESSAGE =
  "Demo mode is on: the demo accounts cannot change their profile, e-mail or password, buy proxies or buy credits. Sign up for an account of your own to do that.";

/**
 * True when the demo_mode setting is "true".
 * @param {CoreApp} app
 */
function demoMode(app) {
  return values.settingOn(app, "demo_mode");
}

/**
 * Refuses a console change while demo mode is on (403 with a message saying why).
 * @param {CoreApp} app
 */
function refuseInDemoMode(app) {
  if (demoMode(app)) throw new ForbiddenError(DEMO_MODE_MESSAGE);
}

/**
 * Refuses (403, DEMO_ACCOUNT_MESSAGE) a change by or to a demo account (users.is_demo, set
 * by the demo seed) while demo mode is on; anything else passes.
 * @param {CoreApp} app
 * @param {core.Record | null | undefined} user  a users record (others pass)
 */
function refuseDemoAccount(app, user) {
  if (!user || user.collection().name !== "users" || !user.getBool("is_demo")) return;
  if (demoMode(app)) throw new ForbiddenError(DEMO_ACCOUNT_MESSAGE);
}

/**
 * The users hooks' guard: a change to a demo account (`user`) is refused in demo mode,
 * whoever asks (the account itself, or an admin managing users), except a superuser (the
 * PocketBase dashboard) where `superuserMay`. Then the request goes on.
 * @param {core.RequestEvent} e
 * @param {core.Record | null | undefined} user
 * @param {boolean} [superuserMay]
 */
function guardDemoAccount(e, user, superuserMay = false) {
  if (!(superuserMay && e.hasSuperuserAuth())) refuseDemoAccount(e.app, user);
  return e.next();
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

module.exports = {
  DEMO_MODE_MESSAGE,
  DEMO_ACCOUNT_MESSAGE,
  demoMode,
  refuseInDemoMode,
  refuseDemoAccount,
  guardDemoAccount,
  applyDemoModeEnv,
};
