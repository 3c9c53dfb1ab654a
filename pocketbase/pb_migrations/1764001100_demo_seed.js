// @ts-check
// Demo data for the embedded default, only when SHOP_DEMO_SEED=true on the first start
// (see pb_hooks/lib/demo-seed.js). Accounts come from SHOP_DEMO_* variables.

migrate(
  (app) => {
    if ($os.getenv("SHOP_DEMO_SEED") !== "true") return;
    /** @type {typeof import("../pb_hooks/lib/demo-seed.js")} */
    const demo = require(`${__hooks}/lib/demo-seed.js`);
    demo.seedDemo(app, demo.demoAccountsFromEnv());
  },
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/demo-seed.js")} */
    const demo = require(`${__hooks}/lib/demo-seed.js`);
    demo.unseedDemo(app, demo.demoAccountsFromEnv());
  },
);
