// @ts-check
// The console's routes under /api/admin/ (the spec's admin "stored procedures"): who may
// call them, demo mode (the console read-only, lib/core/demo-mode.js), and a change
// written together with its audit row. Every admin route starts with requireAdmin(e) (reads) or requireAdminWrite(e)
// (changes); records-API writes by admins are checked in lib/core/audit.js auditAdminWrite.

/** @type {typeof import("./audit.js")} */
const audit = require(`${__hooks}/lib/core/audit.js`);
/** @type {typeof import("./demo-mode.js")} */
const demo = require(`${__hooks}/lib/core/demo-mode.js`);

/**
 * The signed-in shop admin (a users record with is_admin), else 401 or 403. A signed-in
 * customer's refusal is audited ("admin.refused", lib/core/audit.js auditRefused).
 * @param {core.RequestEvent} e
 * @returns {core.Record}
 */
function requireAdmin(e) {
  const auth = e.auth;
  if (!auth || auth.collection().name !== "users") throw new UnauthorizedError("Sign in as an administrator to do this.");
  if (!auth.getBool("is_admin")) {
    audit.auditRefused(e, auth);
    throw new ForbiddenError("You need administrator privileges to do this.");
  }
  return auth;
}

/**
 * The signed-in shop admin allowed to change something now (not in demo mode).
 * @param {core.RequestEvent} e
 * @returns {core.Record}
 */
function requireAdminWrite(e) {
  const admin = requireAdmin(e);
  demo.refuseInDemoMode(e.app);
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

/** The longest search text the console's lists take. */
const MAX_SEARCH = 200;

/**
 * The list's `search` query parameter, trimmed; a 400 naming the field when it is longer
 * than MAX_SEARCH.
 * @param {core.RequestEvent} e
 */
function searchParam(e) {
  const search = String(e.request?.url?.query().get("search") ?? "").trim();
  if (search.length > MAX_SEARCH) {
    throw require(`${__hooks}/lib/core/api.js`).fieldError("search", `Search text must be at most ${MAX_SEARCH} characters.`);
  }
  return search;
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
  requireAdmin,
  requireAdminWrite,
  auditedChange,
  paging,
  searchParam,
  listPage,
};
