// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Announces every committed change of settings or plans on the `public_content` topic;
// the web server reloads its snapshot (src/lib/server/site-content.ts).

onRecordAfterCreateSuccess(
  (e) => {
    /** @type {typeof import("./lib/core/realtime.js")} */
    const realtime = require(`${__hooks}/lib/core/realtime.js`);
    realtime.announcePublicContent(e, "create");
    e.next();
  },
  "settings",
  "pricing_plans",
);

onRecordAfterUpdateSuccess(
  (e) => {
    /** @type {typeof import("./lib/core/realtime.js")} */
    const realtime = require(`${__hooks}/lib/core/realtime.js`);
    realtime.announcePublicContent(e, "update");
    e.next();
  },
  "settings",
  "pricing_plans",
);

onRecordAfterDeleteSuccess(
  (e) => {
    /** @type {typeof import("./lib/core/realtime.js")} */
    const realtime = require(`${__hooks}/lib/core/realtime.js`);
    realtime.announcePublicContent(e, "delete");
    e.next();
  },
  "settings",
  "pricing_plans",
);
