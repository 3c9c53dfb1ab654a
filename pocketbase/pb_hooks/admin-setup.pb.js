// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The first administrator on a real host (issue #17), public routes under /api/setup/:
// whether an admin exists (the console's sign-in page explains the setup link when none
// does), the setup link's check, and the admin's creation with it. The token comes from
// `pocketbase admin-setup` (admin_setup.go), printed by the start banner or `admin create`.
// Rate limited per IP (lib/settings/rate-limits.js). Handlers: lib/accounts/admin-setup.js.

// The routes: lib/api/routes.js (adminSetup).
require(`${__hooks}/lib/core/routes.js`).register(
  require(`${__hooks}/lib/api/routes.js`).adminSetup,
  (/** @type {core.RequestEvent} */ e) =>
    require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).adminSetup),
);
