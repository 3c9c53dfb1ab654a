// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Settings: what the environment sets on every start, the console's System Settings, the
// announcement of public content changes, and PocketBase's own backups. Route docs are on
// the functions in lib/settings/.

// On every start, after PocketBase's own bootstrap: the app URL, mail and rate-limit knobs
// (env-settings.js), the backup schedule (backups.js; defaults: the 1764300600 migration)
// and SHOP_DEMO_MODE, which pins demo_mode (demo-mode.js).
onBootstrap((e) => {
  e.next();
  require(`${__hooks}/lib/core/demo-mode.js`).applyDemoModeEnv(e.app);
  require(`${__hooks}/lib/settings/backups.js`).applyBackupEnv(e.app);
  require(`${__hooks}/lib/settings/env-settings.js`).applyAppUrl(e.app);
  require(`${__hooks}/lib/settings/env-settings.js`).applyEnvSettings(e.app);
});

// The routes: lib/api/routes.js (settings).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).settings, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).settings),
);

// Every committed change of settings or plans is announced on the `public_content` topic;
// the web server reloads its snapshot (src/lib/server/site-content.ts).
onRecordAfterCreateSuccess(
  (e) => require(`${__hooks}/lib/core/realtime.js`).announcePublicContent(e, "create"),
  "settings",
  "pricing_plans",
);
onRecordAfterUpdateSuccess(
  (e) => require(`${__hooks}/lib/core/realtime.js`).announcePublicContent(e, "update"),
  "settings",
  "pricing_plans",
);
onRecordAfterDeleteSuccess(
  (e) => require(`${__hooks}/lib/core/realtime.js`).announcePublicContent(e, "delete"),
  "settings",
  "pricing_plans",
);

// A committed change of gateway_public_host moves every proxy's stored host to it (the
// name customers connect to the gateway by; lib/proxies/gateway-endpoint.js).
onRecordAfterCreateSuccess((e) => {
  if (e.record?.getString("key") === "gateway_public_host") require(`${__hooks}/lib/proxies/gateway-endpoint.js`).syncEndpoints(e.app);
  e.next();
}, "settings");
onRecordAfterUpdateSuccess((e) => {
  if (e.record?.getString("key") === "gateway_public_host") require(`${__hooks}/lib/proxies/gateway-endpoint.js`).syncEndpoints(e.app);
  e.next();
}, "settings");

// The data dir files a backup never holds, and no restore while replicating.
onBackupCreate((e) => {
  require(`${__hooks}/lib/settings/backups.js`).excludeSecrets(e);
  e.next();
});
onBackupRestore((e) => {
  const backups = require(`${__hooks}/lib/settings/backups.js`);
  backups.refuseRestoreWhileReplicating();
  backups.excludeSecrets(e);
  e.next();
});
