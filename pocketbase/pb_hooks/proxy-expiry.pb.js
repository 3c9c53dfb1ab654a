// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Every minute: auto-renewals, expiries, returns to stock, reminder mails and clean-up
// (lib/proxies/expiry.js). Superusers can run it at once and get its report with
// POST /api/admin/jobs/proxy-expiry.

cronAdd("proxy_expiry", "* * * * *", () => {
  /** @type {typeof import("./lib/proxies/expiry.js")} */
  const expiry = require(`${__hooks}/lib/proxies/expiry.js`);
  const report = expiry.runExpiryJob($app);
  if (Object.values(report).some((n) => n > 0)) $app.logger().info("Proxy expiry job", "report", JSON.stringify(report));
});

// POST /api/admin/jobs/proxy-expiry: runs the job now and answers its report (superusers
// only; PocketBase's own POST /api/crons/{id} starts it without waiting for the result).
routerAdd(
  "POST",
  "/api/admin/jobs/proxy-expiry",
  (e) => {
    /** @type {typeof import("./lib/proxies/expiry.js")} */
    const expiry = require(`${__hooks}/lib/proxies/expiry.js`);
    return e.json(200, expiry.runExpiryJob(e.app));
  },
  $apis.requireSuperuserAuth(),
);
