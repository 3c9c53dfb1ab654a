// @ts-check
// Where a proxy's traffic leaves the gateway (issue #16), and the customer's IP allowlist.
//
// proxies:
// - exit: "direct" (from the gateway's machine, bound to bind_address when set) or
//   "upstream" (through the upstream proxy upstream_host:upstream_port, with its own
//   upstream_username and upstream_password_encrypted, sealed like password_encrypted and
//   hidden: no answer, export or page ever shows it). "" is read as "direct".
// - upstream_failed_at / upstream_error: the gateway's last failure to reach the upstream
//   (shown in Proxy Management; cleared by its next success).
// All of them are hidden: the records API never shows where a proxy exits, even to its
// owner; the console reads them through /api/admin routes.
// - username/password_encrypted stay the customer's credentials on the gateway: they and
//   the upstream's have different lifetimes (regenerate, release and refund change the
//   customer's only).
// Existing rows become gateway proxies whose upstream is what they stored (the issue's
// move): their owners keep the username and password they hold.
//
// users.ip_allowlist: addresses and CIDR ranges (JSON list of strings) from which the
// gateway answers the customer's proxies; empty = anywhere. A trigger feeds a change to
// the gateway (1764600000_gateway_changes.js). Written only by the server, which checks
// every entry.

const UPSTREAM_FIELDS = [
  "exit",
  "bind_address",
  "upstream_host",
  "upstream_port",
  "upstream_username",
  "upstream_password_encrypted",
  "upstream_failed_at",
  "upstream_error",
];

// Written only through PUT /api/v1/account/ip-allowlist, which checks every entry.
const LOCKED_ALLOWLIST = "@request.body.ip_allowlist:changed = false";

const ALLOWLIST_TRIGGER = `CREATE TRIGGER IF NOT EXISTS gateway_user_allowlist AFTER UPDATE ON users
  WHEN NEW.ip_allowlist IS NOT OLD.ip_allowlist
  BEGIN INSERT INTO gateway_changes (proxy_id) SELECT id FROM proxies WHERE assigned_to_user_id = NEW.id; END`;

migrate(
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.add(new SelectField({ name: "exit", maxSelect: 1, values: ["direct", "upstream"], hidden: true }));
    proxies.fields.add(new TextField({ name: "bind_address", max: 45, hidden: true }));
    proxies.fields.add(new TextField({ name: "upstream_host", max: 255, hidden: true }));
    proxies.fields.add(new NumberField({ name: "upstream_port", onlyInt: true, min: 0, max: 65535, hidden: true }));
    proxies.fields.add(new TextField({ name: "upstream_username", max: 255, hidden: true }));
    proxies.fields.add(new TextField({ name: "upstream_password_encrypted", max: 2000, hidden: true }));
    proxies.fields.add(new DateField({ name: "upstream_failed_at", hidden: true }));
    proxies.fields.add(new TextField({ name: "upstream_error", max: 500, hidden: true }));
    app.save(proxies);

    app
      .db()
      .newQuery(
        `UPDATE proxies SET exit = 'upstream', upstream_host = host, upstream_port = port,
         upstream_username = username, upstream_password_encrypted = password_encrypted`,
      )
      .execute();

    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    users.fields.add(new JSONField({ name: "ip_allowlist", maxSize: 20000 }));
    if (users.updateRule) users.updateRule = [users.updateRule, LOCKED_ALLOWLIST].join(" && ");
    app.save(users);
    app.db().newQuery(ALLOWLIST_TRIGGER).execute();
  },
  (app) => {
    app.db().newQuery("DROP TRIGGER IF EXISTS gateway_user_allowlist").execute();
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    if (users.updateRule) {
      users.updateRule = users.updateRule
        .split(" && ")
        .filter((part) => part !== LOCKED_ALLOWLIST)
        .join(" && ");
    }
    users.fields.removeByName("ip_allowlist");
    app.save(users);
    const proxies = app.findCollectionByNameOrId("proxies");
    for (const name of UPSTREAM_FIELDS) proxies.fields.removeByName(name);
    app.save(proxies);
  },
);
