// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Reports: the console's Overview and Analytics. Route docs are on the functions in lib/reports/.

routerAdd("GET", "/api/admin/overview", (e) => require(`${__hooks}/lib/reports/overview.js`).overview(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/admin/analytics", (e) => require(`${__hooks}/lib/reports/analytics.js`).analytics(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/admin/system-alerts", (e) => require(`${__hooks}/lib/reports/alerts.js`).alerts(e), $apis.requireAuth("users"));
