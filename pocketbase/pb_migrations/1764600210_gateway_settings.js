// @ts-check
// The gateway's settings (issue #16): gateway_public_host (public: the name customers
// connect to, "" = SHOP_APP_URL's host), and the admin-only gateway_bind_addresses (local
// addresses Generate spreads direct proxies over) and gateway_allowed_ranges (CIDR ranges
// the gateway may dial even off loopback). A shop installed before them gets the rows with
// the defaults of lib/default-settings.json (a fresh install writes them already), and the
// settings rows stay readable by anyone except the staff address and these two.

const KEYS = ["gateway_public_host", "gateway_bind_addresses", "gateway_allowed_ranges"];
const BEFORE_RULE = 'key != "staff_notification_email"';
const PRIVATE_RULE = 'key != "staff_notification_email" && key != "gateway_bind_addresses" && key != "gateway_allowed_ranges"';

migrate(
  (app) => {
    /** @type {Record<string, string>} */
    const defaults = require(`${__hooks}/lib/default-settings.json`);
    const settings = app.findCollectionByNameOrId("settings");
    for (const key of KEYS) {
      if (app.countRecords("settings", $dbx.hashExp({ key })) === 0) {
        app.save(new Record(settings, { key, value: defaults[key] ?? "" }));
      }
    }
    settings.listRule = PRIVATE_RULE;
    settings.viewRule = PRIVATE_RULE;
    app.save(settings);
  },
  (app) => {
    const settings = app.findCollectionByNameOrId("settings");
    settings.listRule = BEFORE_RULE;
    settings.viewRule = BEFORE_RULE;
    app.save(settings);
  },
);
