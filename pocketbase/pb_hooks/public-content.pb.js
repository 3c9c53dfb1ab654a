// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Announces every committed change of settings or plans on the `public_content` topic;
// the web server reloads its snapshot (src/lib/server/site-content.ts).

onRecordAfterCreateSuccess((e) => {
  /** @type {typeof import("./lib/realtime.js")} */
  const realtime = require(`${__hooks}/lib/realtime.js`);
  realtime.broadcast(e.app, realtime.PUBLIC_CONTENT_TOPIC, { collection: e.record?.collection().name, action: "create", id: e.record?.id });
  e.next();
}, "settings", "pricing_plans");

onRecordAfterUpdateSuccess((e) => {
  /** @type {typeof import("./lib/realtime.js")} */
  const realtime = require(`${__hooks}/lib/realtime.js`);
  realtime.broadcast(e.app, realtime.PUBLIC_CONTENT_TOPIC, { collection: e.record?.collection().name, action: "update", id: e.record?.id });
  e.next();
}, "settings", "pricing_plans");

onRecordAfterDeleteSuccess((e) => {
  /** @type {typeof import("./lib/realtime.js")} */
  const realtime = require(`${__hooks}/lib/realtime.js`);
  realtime.broadcast(e.app, realtime.PUBLIC_CONTENT_TOPIC, { collection: e.record?.collection().name, action: "delete", id: e.record?.id });
  e.next();
}, "settings", "pricing_plans");
