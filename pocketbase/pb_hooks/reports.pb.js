// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Reports: the console's Overview and Analytics. Route docs are on the functions in lib/reports/.

// The routes: lib/api/routes.js (reports).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).reports, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).reports),
);
