// @ts-check
// Demo accounts are marked (security review #13, finding 5): users.is_demo (hidden: only
// superusers and the server read or write it) is set by the demo seed
// (pb_hooks/lib/accounts/demo-seed.js). While the demo_mode setting is on, a demo account cannot
// change its profile or credentials and cannot buy (pb_hooks/demo-accounts.pb.js). Data
// dirs seeded before this migration get their demo accounts marked here: the accounts
// whose e-mail is SHOP_DEMO_ADMIN_EMAIL / SHOP_DEMO_CUSTOMER_EMAIL, when the demo seed is
// on (SHOP_DEMO_SEED=true, as `npm start` sets it on a loopback host).
// Also (finding 9): the invitation check takes its token in a POST body now, so its rate
// limit rule is "POST /api/shop/admin-invitations/check" (pb_hooks/lib/settings/rate-limits.js)
// instead of the GET one.

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.add(new BoolField({ name: "is_demo", hidden: true }));
    app.save(users);

    /** @type {typeof import("../pb_hooks/lib/settings/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/settings/rate-limits.js`);
    limits.removeRules(app, ["GET /api/shop/admin-invitations/check"]);
    limits.addMissingDefaultRules(app);

    if ($os.getenv("SHOP_DEMO_SEED") !== "true") return;
    /** @type {typeof import("../pb_hooks/lib/accounts/demo-seed.js")} */
    const demo = require(`${__hooks}/lib/accounts/demo-seed.js`);
    const accounts = demo.demoAccountsFromEnv();
    for (const email of [accounts.adminEmail, accounts.customerEmail]) {
      app.db().newQuery("UPDATE users SET is_demo = TRUE WHERE email = {:email}").bind({ email }).execute();
    }
  },
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.removeByName("is_demo");
    app.save(users);
  },
);
