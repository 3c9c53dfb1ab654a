// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The developer API (issue #18): the reads of a customer's account, proxies, ledger and
// orders, the catalog, API keys, and the OpenAPI document that is the contract of every
// /api/v1 route (written from src/lib/api-contract/ by `npm run openapi`). Pocketbase's Go
// side (pocketbase/devapi) authenticates API keys, holds them to their scopes, checks every
// request against the document before a hook runs and answers every failure as problem
// details. Route docs are on the functions in lib/api/.

// The routes: lib/api/routes.js (api).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).api, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).api),
);

// Kept answers of changes (Idempotency-Key) live two days.
cronAdd("api_idempotency_purge", "17 * * * *", () => require(`${__hooks}/lib/core/changes.js`).purgeOld($app));
