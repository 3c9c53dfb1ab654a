// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The console's Analytics, Audit Logs and Affiliate Management routes (admin spec 2, 7:
// get_admin_analytics_data, get_admin_audit_logs, get_admin_affiliates, the referrals
// read; "pay referral" is money.pb.js). Shop admins only: anonymous 401, customers 403. Errors are
// {status, message, data: {field: {code, message}}}; lists answer
// {items, page, perPage, totalItems, totalPages}. Helpers: lib/reports/console-analytics.js,
// lib/audit/console-audit-logs.js, lib/affiliate/console-affiliates.js.

// GET /api/admin/analytics?days=7|30|90 (30 when absent; anything else 400 "Days must be 7, 30 or 90.", data.days)
// -> {days, total_users, total_revenue_cents, total_proxies, avg_revenue_per_user_cents  (all time),
//     period_new_users, period_revenue_cents  (the period),
//     user_growth: [{date: "YYYY-MM-DD", count}], revenue: [{date, cents}]  (every UTC day of the period, oldest first),
//     proxy_usage: {by_type: {RESIDENTIAL: n, DATACENTER: n, SOCKS5: n, HTTP: n, HTTPS: n}, by_country: [{country, count}] (top 5)}}
// Revenue is money received (paid payments' amount_cents, by the day paid), never credits or
// bonuses; users are every account; proxy usage counts ASSIGNED proxies (in customers' hands).
routerAdd(
  "GET",
  "/api/admin/analytics",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/reports/console-analytics.js")} */
    const analytics = require(`${__hooks}/lib/reports/console-analytics.js`);
    const days = analytics.parseDays(String(e.request?.url?.query().get("days") ?? ""));
    return e.json(200, analytics.analytics(e.app, days));
  },
  $apis.requireAuth("users"),
);

// GET /api/admin/audit-logs?search=&action=&page=&perPage= (perPage default 20, at most 100)
// -> {items: [{id, action, target_type, target_id, details, created, admin_id, admin_email,
//     admin_first_name, admin_last_name}], page, perPage, totalItems, totalPages}
// Newest first. search (at most 200 characters) matches the action, target type and id, the
// details' JSON text and the admin's e-mail, first, last or full name; action is exact.
// An entry whose admin account was deleted answers admin_id "" and empty names.
routerAdd(
  "GET",
  "/api/admin/audit-logs",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/audit/console-audit-logs.js")} */
    const logs = require(`${__hooks}/lib/audit/console-audit-logs.js`);
    const query = e.request?.url?.query();
    const search = String(query?.get("search") ?? "").trim();
    if (search.length > 200) throw api.fieldError("search", "Search text must be at most 200 characters.");
    const action = String(query?.get("action") ?? "").trim();
    return e.json(200, logs.list(e.app, { search, action, ...admin.paging(e, 100) }));
  },
  $apis.requireAuth("users"),
);

// GET /api/admin/audit-logs/summary
// -> {today (entries since 00:00 UTC), this_week (entries in the last 7 days),
//     active_admins (distinct admins with an entry in the last 7 days), actions: [every action name, sorted]}
routerAdd(
  "GET",
  "/api/admin/audit-logs/summary",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/audit/console-audit-logs.js")} */
    const logs = require(`${__hooks}/lib/audit/console-audit-logs.js`);
    return e.json(200, logs.summary(e.app));
  },
  $apis.requireAuth("users"),
);

// GET /api/admin/affiliates?search=&page=&perPage= (perPage default 20, at most 100)
// -> {items: [{id, user_id, user_email, user_first_name, user_last_name, code, total_earnings_cents,
//     pending_earnings_cents, paid_earnings_cents, total_referrals}], page, perPage, totalItems, totalPages,
//     stats: {total_affiliates, commission_paid_cents, pending_payouts_cents, total_referrals}}
// Lists affiliates with a referral that counts (verified e-mail) or earnings, most pending
// first; search (at most 200 characters) matches e-mail, first, last or full name and code.
// The stats cover every listed affiliate, whatever the search.
routerAdd(
  "GET",
  "/api/admin/affiliates",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/affiliate/console-affiliates.js")} */
    const affiliates = require(`${__hooks}/lib/affiliate/console-affiliates.js`);
    const search = String(e.request?.url?.query().get("search") ?? "").trim();
    if (search.length > 200) throw api.fieldError("search", "Search text must be at most 200 characters.");
    return e.json(200, affiliates.list(e.app, { search, ...admin.paging(e, 100) }));
  },
  $apis.requireAuth("users"),
);

// GET /api/admin/affiliates/{id}/referrals?page=&perPage= (perPage default 20, at most 100)
// -> {affiliate: (a list item), items: [{id, affiliate_id, referred_user_id, user_email, user_first_name,
//     user_last_name, user_verified, commission_cents (all earned), pending_cents (still to pay), status
//     (pending|paid), created, paid_at (last payout; "" never)}], page, perPage, totalItems, totalPages}
// Newest first; 404 for an unknown affiliate.
routerAdd(
  "GET",
  "/api/admin/affiliates/{id}/referrals",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    admin.requireAdmin(e);
    /** @type {typeof import("./lib/affiliate/console-affiliates.js")} */
    const affiliates = require(`${__hooks}/lib/affiliate/console-affiliates.js`);
    return e.json(200, affiliates.referrals(e.app, e.request?.pathValue("id") ?? "", admin.paging(e, 100)));
  },
  $apis.requireAuth("users"),
);
