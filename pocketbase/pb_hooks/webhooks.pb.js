// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Customer webhooks (issue #18): a customer's endpoints, their signing secrets and
// deliveries under /api/v1/webhooks (the "webhooks" scope for API keys). Route docs are on
// the functions in lib/webhooks/routes.js and delivery-routes.js; the queue is
// lib/webhooks/queue.js and the dispatcher pocketbase/webhooks.

routerAdd("GET", "/api/v1/webhooks", (e) => require(`${__hooks}/lib/webhooks/routes.js`).listRoute(e), $apis.requireAuth("users"));
routerAdd("POST", "/api/v1/webhooks", (e) => require(`${__hooks}/lib/webhooks/routes.js`).createRoute(e), $apis.requireAuth("users"));
routerAdd("PATCH", "/api/v1/webhooks/{id}", (e) => require(`${__hooks}/lib/webhooks/routes.js`).updateRoute(e), $apis.requireAuth("users"));
routerAdd(
  "DELETE",
  "/api/v1/webhooks/{id}",
  (e) => require(`${__hooks}/lib/webhooks/routes.js`).deleteRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/v1/webhooks/{id}/rotate-secret",
  (e) => require(`${__hooks}/lib/webhooks/routes.js`).rotateRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "GET",
  "/api/v1/webhooks/{id}/deliveries",
  (e) => require(`${__hooks}/lib/webhooks/delivery-routes.js`).deliveriesRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/v1/webhooks/{id}/deliveries/{delivery}/resend",
  (e) => require(`${__hooks}/lib/webhooks/delivery-routes.js`).resendRoute(e),
  $apis.requireAuth("users"),
);
