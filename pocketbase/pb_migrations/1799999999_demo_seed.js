// @ts-check
// Demo data for the embedded default, only when SHOP_DEMO_SEED=true on the first start
// (see pb_hooks/lib/accounts/demo-seed.js). Accounts come from SHOP_DEMO_* variables.
// The seed uses the shop's own purchase and payment code, so it needs the whole schema:
// this file keeps the last timestamp; give new migrations smaller ones. (It was
// 1764001100_demo_seed.js; data dirs seeded by that one are left alone.)

migrate(
  (app) => {
    if ($os.getenv("SHOP_DEMO_SEED") !== "true") return;
    /** @type {typeof import("../pb_hooks/lib/accounts/demo-seed.js")} */
    const demo = require(`${__hooks}/lib/accounts/demo-seed.js`);
    const accounts = demo.demoAccountsFromEnv();
    if (app.countRecords("users", $dbx.hashExp({ email: accounts.adminEmail })) > 0) return;
    demo.seedDemo(app, accounts);
  },
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/accounts/demo-seed.js")} */
    const demo = require(`${__hooks}/lib/accounts/demo-seed.js`);
    demo.unseedDemo(app, demo.demoAccountsFromEnv());
  },
);
