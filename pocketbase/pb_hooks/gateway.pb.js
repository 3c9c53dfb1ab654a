// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The gateway's side of the shop's API (issue #16). The gateway itself is Go
// (pocketbase/gateway) and follows the database on its own; these are the routes
// customers use with it. Route docs are on the functions in lib/gateway/.

// The caller's address, for testing a proxy: `curl -x http://user:pass@host:port https://shop/api/ip`.
routerAdd("GET", "/api/ip", (e) => require(`${__hooks}/lib/gateway/ip-echo.js`).ipEchoRoute(e));

// The console's gateway tokens (System Settings, "Proxy gateway"): what a gateway on another
// machine follows the shop with. Shop admins only; the token is shown once.
routerAdd("GET", "/api/admin/gateway-tokens", (e) => require(`${__hooks}/lib/gateway/tokens.js`).list(e), $apis.requireAuth("users"));
routerAdd("POST", "/api/admin/gateway-tokens", (e) => require(`${__hooks}/lib/gateway/tokens.js`).create(e), $apis.requireAuth("users"));
routerAdd(
  "DELETE",
  "/api/admin/gateway-tokens/{id}",
  (e) => require(`${__hooks}/lib/gateway/tokens.js`).revoke(e),
  $apis.requireAuth("users"),
);
