// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The gateway's side of the shop's API (issue #16). The gateway itself is Go
// (pocketbase/gateway) and follows the database on its own; these are the routes
// customers use with it. Route docs are on the functions in lib/gateway/.

// The routes: lib/api/routes.js (gateway).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).gateway, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).gateway),
);
