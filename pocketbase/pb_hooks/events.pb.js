// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Customer webhook events that no request makes happen (issue #18): the webhook events job
// announces proxy.quota_reached (80% and 100% of a proxy's monthly bandwidth quota, once
// each per UTC month) from the usage rows the gateway writes. The other events are queued
// where they happen (lib/webhooks/events.js and lib/proxies/events.js name each source).

cronAdd("webhook_events", "* * * * *", () => require(`${__hooks}/lib/proxies/events.js`).runScheduled());

// The routes: lib/api/routes.js (events).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).events, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).events),
);
