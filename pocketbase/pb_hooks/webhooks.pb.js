// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Customer webhooks (issue #18): a customer's endpoints, their signing secrets and
// deliveries under /api/v1/webhooks (the "webhooks" scope for API keys). Route docs are on
// the functions in lib/webhooks/routes.js and delivery-routes.js; the queue is
// lib/webhooks/queue.js and the dispatcher pocketbase/webhooks.

// The routes: lib/api/routes.js (webhooks).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).webhooks, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).webhooks),
);
