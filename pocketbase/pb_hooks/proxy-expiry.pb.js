// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Every minute: auto-renewals, expiries, returns to stock, reminder mails and clean-up
// (lib/expiry.js). Superusers can run it at once with POST /api/crons/proxy_expiry.

cronAdd("proxy_expiry", "* * * * *", () => {
  /** @type {typeof import("./lib/expiry.js")} */
  const expiry = require(`${__hooks}/lib/expiry.js`);
  const report = expiry.runExpiryJob($app);
  if (Object.values(report).some((n) => n > 0)) $app.logger().info("Proxy expiry job", "report", JSON.stringify(report));
});
