// @ts-check
// Customer credentials on the gateway (issue #16). The gateway finds a proxy by its
// username alone, so usernames become unique across the shop: the unique index on (host,
// port, username) is replaced by one on username. Clashes among existing rows (the same
// upstream username on several hosts) are resolved first: the ASSIGNED row keeps the
// username (else an EXPIRED one, else the oldest), the others (unsold, or duplicates) get
// a new random one. Every row's host and port become the gateway's
// (lib/proxies/gateway-endpoint.js syncEndpoints); the owners of proxies that moved are
// marked (proxies.endpoint_notice_pending, hidden) and told once by mail after the start
// (proxies.pb.js, onServe: a migration cannot send mail reliably). Their username and
// password stay what they hold. An index on the upstream (host, port, username) keeps the
// import's duplicate check fast.

const USERNAME_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Gives every row but the keeper of a shared username a new random one (the type and
 * country prefix of lib/proxies/proxies.js newUsername).
 * @param {CoreApp} app
 */
function resolveUsernameClashes(app) {
  const rows = arrayOf(new DynamicModel({ id: "", username: "", type: "", country: "" }));
  app
    .db()
    .newQuery(
      `SELECT id, username, type, country FROM proxies
       WHERE username IN (SELECT username FROM proxies GROUP BY username HAVING COUNT(*) > 1)
       ORDER BY username, CASE WHEN status = 'ASSIGNED' THEN 0 WHEN status = 'EXPIRED' AND assigned_to_user_id != '' THEN 1 ELSE 2 END,
         created, rowid`,
    )
    .all(rows);
  let previous = null;
  for (const row of rows) {
    if (row.username !== previous) {
      previous = row.username; // the keeper
      continue;
    }
    const place = String(row.country)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .slice(0, 12);
    for (;;) {
      const username = `${String(row.type).slice(0, 3).toLowerCase()}_${place}_${$security.randomStringWithAlphabet(12, USERNAME_ALPHABET)}`;
      const taken = new DynamicModel({ n: 0 });
      app.db().newQuery("SELECT COUNT(*) AS n FROM proxies WHERE username = {:username}").bind({ username }).one(taken);
      if (taken.n > 0) continue;
      app.db().newQuery("UPDATE proxies SET username = {:username} WHERE id = {:id}").bind({ username, id: row.id }).execute();
      break;
    }
  }
}

/**
 * Marks the proxies a customer holds whose host or port is about to change.
 * @param {CoreApp} app
 */
function markMovedProxies(app) {
  /** @type {typeof import("../pb_hooks/lib/proxies/gateway-endpoint.js")} */
  const gateway = require(`${__hooks}/lib/proxies/gateway-endpoint.js`);
  for (const type of ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"]) {
    const { host, port } = gateway.gatewayEndpoint(type, app);
    app
      .db()
      .newQuery(
        `UPDATE proxies SET endpoint_notice_pending = TRUE WHERE type = {:type} AND assigned_to_user_id != ''
         AND status IN ('ASSIGNED', 'EXPIRED') AND (host != {:host} OR port != {:port})`,
      )
      .bind({ type, host, port })
      .execute();
  }
}

migrate(
  (app) => {
    let proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.add(new BoolField({ name: "endpoint_notice_pending", hidden: true }));
    proxies.removeIndex("idx_proxies_endpoint");
    app.save(proxies);

    resolveUsernameClashes(app);
    markMovedProxies(app);
    require(`${__hooks}/lib/proxies/gateway-endpoint.js`).syncEndpoints(app);

    proxies = app.findCollectionByNameOrId("proxies");
    proxies.addIndex("idx_proxies_username", true, "username", "");
    proxies.addIndex("idx_proxies_upstream", false, "upstream_host, upstream_port, upstream_username", "");
    app.save(proxies);
  },
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.removeIndex("idx_proxies_username");
    proxies.removeIndex("idx_proxies_upstream");
    proxies.addIndex("idx_proxies_endpoint", true, "host, port, username", "");
    proxies.fields.removeByName("endpoint_notice_pending");
    app.save(proxies);
  },
);
