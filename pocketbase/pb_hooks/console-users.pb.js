// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The console's Overview and User Management routes (admin spec: get_admin_overview_stats,
// get_all_users_admin, toggle_user_admin_status). Shop admins only: anonymous 401,
// customers 403; changes refused in demo mode, each written with exactly one audit row in
// its transaction. Code: lib/accounts/console-users.js. Order refunds and balance
// adjustments are money.pb.js.
//
// GET  /api/admin/overview
//   -> {total_users, total_revenue_cents, active_proxies, recent_transactions: [{id, user_id,
//      user_email, type, amount_cents, description, created}]}  (the 10 newest ledger rows)
//   Revenue is money received: the sum of paid payments' amount_cents. A refund of a proxy
//   order gives credits back, not money, so it does not lower revenue.
// GET  /api/admin/users?search=&role=all|admins|users&page=&perPage=(1-100, default 20)
//   -> {items: [{id, email, first_name, last_name, country, balance_cents, is_admin, verified,
//      created}], page, perPage, totalItems, totalPages, counts: {all, admins, users}}
//   Newest first; search matches e-mail, first or last name (any case, anywhere); counts are
//   for the search whatever the role filter. 400 for an unknown role.
// GET  /api/admin/users/{id}
//   -> {user: {..list fields, onboarding_completed, password_set}, balance_cents,
//      transactions (20 newest), proxies (100, no passwords: id, host, port, type, country,
//      state, city, status, expires_at, auto_renew), tickets (20: id, subject, status,
//      priority, created), orders (20: id, number, kind, proxy_type, quantity, total_cents,
//      status, created, refunded_at, refund_reason, refundable, within_promise,
//      refundable_reason), payments (20 newest credit payments: id, package_id, provider
//      (stripe | test: no money moved), status (pending, paid, failed, partially_refunded,
//      refunded, disputed), amount_cents, credits_cents, bonus_cents, currency,
//      refunded_cents, disputed_cents, dispute_status (open | won | lost | ""), kept_cents
//      (money kept: Stripe only, minus refunds and a lost dispute), failure_reason, paid_at,
//      reversed_at, created), totals: {transactions, proxies, tickets, orders, payments}};
//      404 unknown user.
// POST /api/admin/users/{id}/admin  {is_admin: boolean} -> the user (list fields)
//   400 own flag ("You cannot change your own admin status."), 409 the last admin, 404
//   unknown user. Audit users.admin_grant | users.admin_revoke {email, is_admin: {from, to}};
//   setting the flag the user already has changes nothing and writes no audit row.

routerAdd(
  "GET",
  "/api/admin/overview",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/accounts/console-users.js")} */
    const consoleUsers = require(`${__hooks}/lib/accounts/console-users.js`);
    return e.json(200, consoleUsers.overview(e.app));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/admin/users",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/accounts/console-users.js")} */
    const consoleUsers = require(`${__hooks}/lib/accounts/console-users.js`);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    const query = e.request?.url?.query();
    const role = String(query?.get("role") || "all");
    if (consoleUsers.ROLES.indexOf(role) < 0) throw api.fieldError("role", "Role must be all, admins or users.");
    const search = String(query?.get("search") ?? "");
    return e.json(200, consoleUsers.listUsers(e.app, { search, role, ...admin.paging(e, 100) }));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/admin/users/{id}",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/accounts/console-users.js")} */
    const consoleUsers = require(`${__hooks}/lib/accounts/console-users.js`);
    return e.json(200, consoleUsers.userDetail(e.app, e.request?.pathValue("id") ?? ""));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "POST",
  "/api/admin/users/{id}/admin",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    const caller = admin.requireAdminWrite(e);
    /** @type {typeof import("./lib/accounts/console-users.js")} */
    const consoleUsers = require(`${__hooks}/lib/accounts/console-users.js`);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    const body = api.jsonBody(e);
    if (typeof body["is_admin"] !== "boolean") throw api.fieldError("is_admin", "Admin status (is_admin) must be true or false.");
    return e.json(200, consoleUsers.setAdmin(e.app, caller.id, e.request?.pathValue("id") ?? "", body["is_admin"]));
  },
  $apis.requireAuth("users"),
);
