// @ts-check
// The console's routes under /api/admin/ (the spec's admin "stored procedures"): who may
// call them, demo mode (the console read-only), and a change written together with its
// audit row. Every admin route starts with requireAdmin(e) (reads) or requireAdminWrite(e)
// (changes); records-API writes by admins are checked in lib/audit/audit.js auditAdminWrite.

/** @type {typeof import("./audit.js")} */
const audit = require(`${__hooks}/lib/audit/audit.js`);

const DEMO_MODE_MESSAGE = "Demo mode is on: the console is read-only and changes are not saved.";
/** What a demo account is told when it tries to change itself or buy while demo mode is on. */
const DEMO_ACCOUNT_MESSAGE =
  "Demo mode is on: the demo accounts cannot change their profile, e-mail or password, buy proxies or buy credits. Sign up for an account of your own to do that.";

/**
 * The signed-in shop admin (a users record with is_admin), else 401 or 403.
 * @param {core.RequestEvent} e
 * @returns {core.Record}
 */
function requireAdmin(e) {
  const auth = e.auth;
  if (!auth || auth.collection().name !== "users") throw new UnauthorizedError("Sign in as an administrator to do this.");
  if (!auth.getBool("is_admin")) throw new ForbiddenError("You need administrator privileges to do this.");
  return auth;
}

/**
 * True when the demo_mode setting is "true".
 * @param {CoreApp} app
 */
function demoMode(app) {
  const row = new DynamicModel({ value: "" });
  try {
    app.db().newQuery("SELECT value FROM settings WHERE key = 'demo_mode' LIMIT 1").one(row);
  } catch (_) {
    return false; // no such row: off
  }
  return row.value === "true";
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
 * The signed-in shop admin allowed to change something now (not in demo mode).
 * @param {core.RequestEvent} e
 * @returns {core.Record}
 */
function requireAdminWrite(e) {
  const admin = requireAdmin(e);
  refuseInDemoMode(e.app);
  return admin;
}

/**
 * @template T
 * @typedef {object} AuditedResult
 * @property {T} result  what the route answers
 * @property {{action: string, targetType: string, targetId: string, details?: unknown}} audit  its audit row
 */

/**
 * Runs `change` in a transaction and writes the audit row it describes in the same
 * transaction: a failed change leaves no audit row, a failed audit write undoes the change.
 * @template T
 * @param {core.RequestEvent} e
 * @param {(txApp: CoreApp) => AuditedResult<T>} change
 * @returns {T}
 */
function auditedChange(e, change) {
  /** @type {{value: T} | null} */
  let out = null;
  e.app.runInTransaction((txApp) => {
    const { result, audit: entry } = change(txApp);
    audit.writeAuditLog(txApp, { adminId: e.auth?.id ?? "", ...entry });
    out = { value: result };
  });
  if (!out) throw new Error("audited change did not run");
  return /** @type {{value: T}} */ (out).value;
}

/** The last page a list answers (far beyond any real list; keeps the SQL offset a safe integer). */
const MAX_PAGE = 1000000;

/**
 * Paging from the query string: page 1..MAX_PAGE, perPage 1..maxPerPage (default 20).
 * @param {core.RequestEvent} e
 * @param {number} [maxPerPage]
 * @returns {{page: number, perPage: number, offset: number}}
 */
function paging(e, maxPerPage = 100) {
  const query = e.request?.url?.query();
  const page = Math.min(MAX_PAGE, Math.max(1, Math.floor(Number(query?.get("page") || 1)) || 1));
  const perPage = Math.min(maxPerPage, Math.max(1, Math.floor(Number(query?.get("perPage") || 20)) || 20));
  return { page, perPage, offset: (page - 1) * perPage };
}

/**
 * A list answer in PocketBase's shape: {items, page, perPage, totalItems, totalPages}.
 * @template T
 * @param {T[]} items
 * @param {number} totalItems
 * @param {{page: number, perPage: number}} pageOf
 */
function listPage(items, totalItems, pageOf) {
  // A row list never filled (no page past the count) is a nil Go slice, which JSON writes
  // as null: answer [] as for any empty page.
  const rows = items.length === 0 ? [] : items;
  return { items: rows, page: pageOf.page, perPage: pageOf.perPage, totalItems, totalPages: Math.ceil(totalItems / pageOf.perPage) };
}

module.exports = {
  DEMO_MODE_MESSAGE,
  DEMO_ACCOUNT_MESSAGE,
  requireAdmin,
  requireAdminWrite,
  demoMode,
  refuseInDemoMode,
  refuseDemoAccount,
  auditedChange,
  paging,
  listPage,
};
