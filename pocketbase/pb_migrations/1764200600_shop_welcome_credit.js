// @ts-check
// The welcome credit the public pages promise: welcome_credit_cents (default 500; "0"
// turns the credit and the claim off), granted once when an account first verifies its
// e-mail (pb_hooks/users.pb.js). Installations made before this setting existed get it here.

migrate(
  (app) => {
    /** @type {Record<string, string>} */
    const defaults = require(`${__hooks}/lib/default-settings.json`);
    if (app.countRecords("settings", $dbx.hashExp({ key: "welcome_credit_cents" })) === 0) {
      app.save(
        new Record(app.findCollectionByNameOrId("settings"), { key: "welcome_credit_cents", value: defaults["welcome_credit_cents"] }),
      );
    }
  },
  (app) => {
    for (const row of app.findRecordsByFilter("settings", 'key = "welcome_credit_cents"', "", 1, 0)) {
      if (row) app.delete(row);
    }
  },
);
