// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The gateway's side of the shop's API (issue #16). The gateway itself is Go
// (pocketbase/gateway) and follows the database on its own; these are the routes
// customers use with it. Route docs are on the functions in lib/gateway/.

// The caller's address, for testing a proxy: `curl -x http://user:pass@host:port https://shop/api/ip`.
routerAdd("GET", "/api/ip", (e) => require(`${__hooks}/lib/gateway/ip-echo.js`).ipEchoRoute(e));
