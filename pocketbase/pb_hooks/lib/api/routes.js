// @ts-check
// Every HTTP route of the hooks, one line each, in one table per domain (issue #27); each
// *.pb.js registers its table (lib/core/routes.js). A plain function is a route for
// signed-in users or API keys; open(), superusers() and limitBody() mark the others. Admin
// routes (/api/admin/) refuse anyone but a shop admin inside their handler
// (lib/core/admin.js). Each route is documented on its function.
//
// /api/v1/ is the customer API (the OpenAPI document; pocketbase/devapi validates each
// request against it before the handler runs), /api/admin/ the console's (admin-openapi.json),
// /api/shop/ the public account routes (sign-up, the invitation check, admin registration),
// /api/setup/ the first administrator's (rate limited per IP, lib/settings/rate-limits.js).

/** @type {typeof import("../core/routes.js")} */
const { open, superusers, limitBody, table } = require(`${__hooks}/lib/core/routes.js`);

module.exports = {
  accounts: table({
    "POST /api/shop/signup": open((e) => require(`${__hooks}/lib/accounts/signup.js`).signup(e)),
    "GET /api/shop/admin-invitations/check": open(() => require(`${__hooks}/lib/accounts/admin-register.js`).checkByGet()),
    "POST /api/shop/admin-invitations/check": open((e) => require(`${__hooks}/lib/accounts/admin-register.js`).check(e)),
    "POST /api/shop/admin-register": open((e) => require(`${__hooks}/lib/accounts/admin-register.js`).register(e)),
    "POST /api/admin/invitations": (e) => require(`${__hooks}/lib/accounts/invitations.js`).create(e),
    "GET /api/admin/invitations": (e) => require(`${__hooks}/lib/accounts/invitations.js`).list(e),
    "DELETE /api/admin/invitations/{id}": (e) => require(`${__hooks}/lib/accounts/invitations.js`).revoke(e),
    "GET /api/admin/users": (e) => require(`${__hooks}/lib/accounts/user-admin.js`).list(e),
    "GET /api/admin/users/{id}": (e) => require(`${__hooks}/lib/accounts/user-detail.js`).detail(e),
    "POST /api/admin/users/{id}/admin": (e) => require(`${__hooks}/lib/accounts/user-admin.js`).changeAdmin(e),
    // The admin's user tools (issue #15): e-mail, verification, suspension, deletion on request.
    "POST /api/admin/users/{id}/email": (e) => require(`${__hooks}/lib/accounts/user-email.js`).changeEmail(e),
    "POST /api/admin/users/{id}/verify": (e) => require(`${__hooks}/lib/accounts/user-email.js`).markVerified(e),
    "POST /api/admin/users/{id}/verification": (e) => require(`${__hooks}/lib/accounts/user-email.js`).resendVerification(e),
    "POST /api/admin/users/{id}/suspension": (e) => require(`${__hooks}/lib/accounts/user-suspension.js`).setSuspended(e),
    "POST /api/admin/users/{id}/delete": (e) => require(`${__hooks}/lib/accounts/user-deletion.js`).deleteOnRequest(e),
    // The customer's IP allowlist (issue #16): the addresses their proxies answer on the gateway.
    "GET /api/v1/account/ip-allowlist": (e) => require(`${__hooks}/lib/accounts/ip-allowlist.js`).show(e),
    "PUT /api/v1/account/ip-allowlist": (e) => require(`${__hooks}/lib/accounts/ip-allowlist.js`).replace(e),
  }),
  activity: table({
    "GET /api/v1/activity": (e) => require(`${__hooks}/lib/activity/activity.js`).listActivity(e),
  }),
  adminSetup: table({
    "GET /api/setup/status": open((e) => require(`${__hooks}/lib/accounts/admin-setup.js`).status(e)),
    "POST /api/setup/check": open((e) => require(`${__hooks}/lib/accounts/admin-setup.js`).check(e)),
    "POST /api/setup/admin": open((e) => require(`${__hooks}/lib/accounts/admin-setup.js`).create(e)),
  }),
  affiliate: table({
    "GET /api/v1/affiliate": (e) => require(`${__hooks}/lib/affiliate/affiliate.js`).mySummary(e),
    "PUT /api/v1/affiliate/payout-method": (e) => require(`${__hooks}/lib/affiliate/affiliate.js`).setPayoutMethod(e),
    "GET /api/admin/affiliates": (e) => require(`${__hooks}/lib/affiliate/affiliate-admin.js`).list(e),
    "GET /api/admin/affiliates/{id}/referrals": (e) => require(`${__hooks}/lib/affiliate/affiliate-admin.js`).referrals(e),
  }),
  api: table({
    "GET /api/v1/openapi.json": open((e) => require(`${__hooks}/lib/api/openapi.js`).documentRoute(e)),
    "GET /api/v1/account": (e) => require(`${__hooks}/lib/api/lists.js`).accountRoute(e),
    "GET /api/v1/proxies": (e) => require(`${__hooks}/lib/api/lists.js`).proxiesRoute(e),
    "GET /api/v1/proxies/{id}": (e) => require(`${__hooks}/lib/api/lists.js`).proxyRoute(e),
    "GET /api/v1/transactions": (e) => require(`${__hooks}/lib/api/lists.js`).transactionsRoute(e),
    "GET /api/v1/orders": (e) => require(`${__hooks}/lib/api/lists.js`).ordersRoute(e),
    "GET /api/v1/locations": (e) => require(`${__hooks}/lib/api/lists.js`).locationsRoute(e),
    "GET /api/v1/pricing": (e) => require(`${__hooks}/lib/api/lists.js`).pricingRoute(e),
    "GET /api/v1/api-keys": (e) => require(`${__hooks}/lib/api/api-keys.js`).listRoute(e),
    "POST /api/v1/api-keys": (e) => require(`${__hooks}/lib/api/api-keys.js`).createRoute(e),
    "PATCH /api/v1/api-keys/{id}": (e) => require(`${__hooks}/lib/api/api-keys.js`).updateRoute(e),
    "DELETE /api/v1/api-keys/{id}": (e) => require(`${__hooks}/lib/api/api-keys.js`).revokeRoute(e),
  }),
  audit: table({
    "GET /api/admin/audit-logs": (e) => require(`${__hooks}/lib/audit/audit-log.js`).list(e),
    "GET /api/admin/audit-logs/summary": (e) => require(`${__hooks}/lib/audit/audit-log.js`).summary(e),
  }),
  events: table({
    "POST /api/admin/jobs/webhook-events": superusers((e) => require(`${__hooks}/lib/proxies/events.js`).runJobRoute(e)),
  }),
  gateway: table({
    // The caller's address, for testing a proxy: `curl -x http://user:pass@host:port https://shop/api/ip`.
    "GET /api/ip": open((e) => require(`${__hooks}/lib/gateway/ip-echo.js`).ipEchoRoute(e)),
    // The console's gateway tokens (System Settings, "Proxy gateway"): what a gateway on
    // another machine follows the shop with. Shop admins only; the token is shown once.
    "GET /api/admin/gateway-tokens": (e) => require(`${__hooks}/lib/gateway/tokens.js`).list(e),
    "POST /api/admin/gateway-tokens": (e) => require(`${__hooks}/lib/gateway/tokens.js`).create(e),
    "DELETE /api/admin/gateway-tokens/{id}": (e) => require(`${__hooks}/lib/gateway/tokens.js`).revoke(e),
  }),
  money: table({
    "GET /api/v1/credits/packages": (e) => require(`${__hooks}/lib/money/payments.js`).packages(e),
    "POST /api/v1/credits/checkout": (e) => require(`${__hooks}/lib/money/checkout.js`).checkout(e),
    "POST /api/v1/payments/stripe/webhook": limitBody(1024 * 1024, (e) => require(`${__hooks}/lib/money/stripe.js`).webhook(e)),
    "POST /api/admin/users/{id}/balance": (e) => require(`${__hooks}/lib/accounts/adjustments.js`).adjust(e),
    "POST /api/admin/orders/{id}/refund": (e) => require(`${__hooks}/lib/proxies/order-refund.js`).refund(e),
    "POST /api/admin/referrals/{id}/pay": (e) => require(`${__hooks}/lib/money/payouts.js`).pay(e),
  }),
  proxies: table({
    "POST /api/v1/proxies/purchase": (e) => require(`${__hooks}/lib/proxies/purchase.js`).purchaseRoute(e),
    "POST /api/v1/proxies/renew": (e) => require(`${__hooks}/lib/proxies/renewal.js`).renewRoute(e),
    "PATCH /api/v1/proxies/{id}": (e) => require(`${__hooks}/lib/proxies/my-proxies.js`).autoRenewRoute(e),
    "POST /api/v1/proxies/{id}/rotate": (e) => require(`${__hooks}/lib/proxies/my-proxies.js`).rotateRoute(e),
    "GET /api/v1/proxies/stock": (e) => require(`${__hooks}/lib/proxies/prices.js`).stockRoute(e),
    "GET /api/v1/proxies/prices": (e) => require(`${__hooks}/lib/proxies/prices.js`).pricesRoute(e),
    "GET /api/v1/proxies/countries": (e) => require(`${__hooks}/lib/proxies/my-proxies.js`).countriesRoute(e),
    "GET /api/v1/proxies/usage-summary": (e) => require(`${__hooks}/lib/proxies/usage.js`).summaryRoute(e),
    "GET /api/v1/proxies/{id}/usage": (e) => require(`${__hooks}/lib/proxies/usage.js`).usageRoute(e),
    // Proxy Management: the inventory, edit and delete, generate, import.
    "GET /api/admin/proxies": (e) => require(`${__hooks}/lib/proxies/inventory.js`).listRoute(e),
    "GET /api/admin/proxies/stats": (e) => require(`${__hooks}/lib/proxies/inventory.js`).statsRoute(e),
    "GET /api/admin/proxies/locations": (e) => require(`${__hooks}/lib/proxies/inventory.js`).locationsRoute(e),
    "GET /api/admin/proxies/{id}": (e) => require(`${__hooks}/lib/proxies/inventory.js`).detailRoute(e),
    "PATCH /api/admin/proxies/{id}": (e) => require(`${__hooks}/lib/proxies/inventory-edit.js`).editRoute(e),
    "DELETE /api/admin/proxies/{id}": (e) => require(`${__hooks}/lib/proxies/inventory-edit.js`).deleteRoute(e),
    "POST /api/admin/proxies/generate": (e) => require(`${__hooks}/lib/proxies/generate.js`).generateRoute(e),
    "POST /api/admin/proxies/import": (e) => require(`${__hooks}/lib/proxies/import.js`).importRoute(e),
    "GET /api/shop/stock-summary": open((e) => require(`${__hooks}/lib/proxies/stock-summary.js`).stockSummaryRoute(e)),
    "POST /api/admin/jobs/proxy-expiry": superusers((e) => require(`${__hooks}/lib/proxies/expiry.js`).runJobRoute(e)),
  }),
  reports: table({
    "GET /api/admin/overview": (e) => require(`${__hooks}/lib/reports/overview.js`).overview(e),
    "GET /api/admin/analytics": (e) => require(`${__hooks}/lib/reports/analytics.js`).analytics(e),
    "GET /api/admin/system-alerts": (e) => require(`${__hooks}/lib/reports/alerts.js`).alerts(e),
  }),
  settings: table({
    "GET /api/admin/settings": (e) => require(`${__hooks}/lib/settings/site-settings.js`).get(e),
    "PUT /api/admin/settings": (e) => require(`${__hooks}/lib/settings/site-settings.js`).put(e),
  }),
  support: table({
    "POST /api/v1/support/tickets": (e) => require(`${__hooks}/lib/support/tickets.js`).createTicket(e),
    "GET /api/admin/support/tickets": (e) => require(`${__hooks}/lib/support/ticket-inbox.js`).list(e),
    "GET /api/admin/support/tickets/{id}": (e) => require(`${__hooks}/lib/support/ticket-inbox.js`).get(e),
  }),
  webhooks: table({
    "GET /api/v1/webhooks": (e) => require(`${__hooks}/lib/webhooks/routes.js`).listRoute(e),
    "POST /api/v1/webhooks": (e) => require(`${__hooks}/lib/webhooks/routes.js`).createRoute(e),
    "PATCH /api/v1/webhooks/{id}": (e) => require(`${__hooks}/lib/webhooks/routes.js`).updateRoute(e),
    "DELETE /api/v1/webhooks/{id}": (e) => require(`${__hooks}/lib/webhooks/routes.js`).deleteRoute(e),
    "POST /api/v1/webhooks/{id}/rotate-secret": (e) => require(`${__hooks}/lib/webhooks/routes.js`).rotateRoute(e),
    "GET /api/v1/webhooks/{id}/deliveries": (e) => require(`${__hooks}/lib/webhooks/delivery-routes.js`).deliveriesRoute(e),
    "POST /api/v1/webhooks/{id}/deliveries/{delivery}/resend": (e) => require(`${__hooks}/lib/webhooks/delivery-routes.js`).resendRoute(e),
  }),
};
