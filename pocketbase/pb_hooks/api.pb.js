// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The developer API (issue #18): the reads of a customer's account, proxies, ledger and
// orders, the catalog, API keys, and the OpenAPI document that is the contract of every
// /api/v1 route (written from src/lib/api-contract/ by `npm run openapi`). Pocketbase's Go
// side (pocketbase/devapi) authenticates API keys, holds them to their scopes, checks every
// request against the document before a hook runs and answers every failure as problem
// details. Route docs are on the functions in lib/api/.

routerAdd("GET", "/api/v1/openapi.json", (e) => require(`${__hooks}/lib/api/openapi.js`).documentRoute(e));

routerAdd("GET", "/api/v1/account", (e) => require(`${__hooks}/lib/api/lists.js`).accountRoute(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/v1/proxies", (e) => require(`${__hooks}/lib/api/lists.js`).proxiesRoute(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/v1/proxies/{id}", (e) => require(`${__hooks}/lib/api/lists.js`).proxyRoute(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/v1/transactions", (e) => require(`${__hooks}/lib/api/lists.js`).transactionsRoute(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/v1/orders", (e) => require(`${__hooks}/lib/api/lists.js`).ordersRoute(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/v1/locations", (e) => require(`${__hooks}/lib/api/lists.js`).locationsRoute(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/v1/pricing", (e) => require(`${__hooks}/lib/api/lists.js`).pricingRoute(e), $apis.requireAuth("users"));

routerAdd("GET", "/api/v1/api-keys", (e) => require(`${__hooks}/lib/api/api-keys.js`).listRoute(e), $apis.requireAuth("users"));
routerAdd("POST", "/api/v1/api-keys", (e) => require(`${__hooks}/lib/api/api-keys.js`).createRoute(e), $apis.requireAuth("users"));
routerAdd("PATCH", "/api/v1/api-keys/{id}", (e) => require(`${__hooks}/lib/api/api-keys.js`).updateRoute(e), $apis.requireAuth("users"));
routerAdd("DELETE", "/api/v1/api-keys/{id}", (e) => require(`${__hooks}/lib/api/api-keys.js`).revokeRoute(e), $apis.requireAuth("users"));

// Kept answers of changes (Idempotency-Key) live two days.
cronAdd("api_idempotency_purge", "17 * * * *", () => require(`${__hooks}/lib/core/changes.js`).purgeOld($app));
