// @ts-check
// Guards on the welcome credit and referrals (security review #13, finding 10):
// - users.signup_ip (hidden: the server reads it): the client address the sign-up route
//   saw, so welcome credits can be limited per address and the console can flag referrals
//   whose two accounts signed up from one address.
// - welcome_credits_per_address_per_day (default 3; "0" = no limit): how many accounts that
//   signed up from one address in one day (UTC) get the welcome credit.
// - welcome_credit_spendable_cents (default 10000, the largest welcome credit: all of it):
//   how much of the welcome credit may be spent before a first Stripe payment.

const SETTINGS = ["welcome_credits_per_address_per_day", "welcome_credit_spendable_cents"];

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.add(new TextField({ name: "signup_ip", max: 64, hidden: true }));
    users.addIndex("idx_users_signup_ip", false, "signup_ip", "signup_ip != ''");
    app.save(users);

    /** @type {Record<string, string>} */
    const defaults = require(`${__hooks}/lib/default-settings.json`);
    const settings = app.findCollectionByNameOrId("settings");
    for (const key of SETTINGS) {
      if (app.countRecords("settings", $dbx.hashExp({ key })) === 0) {
        app.save(new Record(settings, { key, value: defaults[key] }));
      }
    }
  },
  (app) => {
    for (const key of SETTINGS) {
      for (const row of app.findRecordsByFilter("settings", "key = {:key}", "", 0, 0, { key })) {
        if (row) app.delete(row);
      }
    }
    const users = app.findCollectionByNameOrId("users");
    users.removeIndex("idx_users_signup_ip");
    users.fields.removeByName("signup_ip");
    app.save(users);
  },
);
