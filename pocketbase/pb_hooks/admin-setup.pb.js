// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The first administrator on a real host (issue #17), public routes under /api/setup/:
// whether an admin exists (the console's sign-in page explains the setup link when none
// does), the setup link's check, and the admin's creation with it. The token comes from
// `pocketbase admin-setup` (admin_setup.go), printed by the start banner or `admin create`.
// Rate limited per IP (lib/settings/rate-limits.js). Handlers: lib/accounts/admin-setup.js.

routerAdd("GET", "/api/setup/status", (e) => require(`${__hooks}/lib/accounts/admin-setup.js`).status(e));
routerAdd("POST", "/api/setup/check", (e) => require(`${__hooks}/lib/accounts/admin-setup.js`).check(e));
routerAdd("POST", "/api/setup/admin", (e) => require(`${__hooks}/lib/accounts/admin-setup.js`).create(e));
