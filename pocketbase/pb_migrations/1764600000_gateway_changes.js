// @ts-check
// The gateway's change feed (issue #16). The proxy gateway (pocketbase/gateway, Go) keeps
// an in-memory index of the credentials it accepts and must follow every change within a
// second. Proxies are written by records-API saves and by raw SQL in the hooks (purchase,
// renewal, expiry, refund, release, generate, import, deletion), which no record hook
// sees, so SQLite triggers note every insert, update and delete of a proxy, and every
// suspension or deletion of a user (for their proxies), in `gateway_changes`. The gateway
// reads the rows after the last sequence number it has seen, reloads those proxies and
// cuts their tunnels when what it accepts changed. It prunes rows older than a few
// minutes; a reader that fell further behind loads everything again.

const TABLE = `CREATE TABLE IF NOT EXISTS gateway_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  proxy_id TEXT NOT NULL,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ', 'now'))
)`;

const TRIGGERS = [
  `CREATE TRIGGER IF NOT EXISTS gateway_proxy_inserted AFTER INSERT ON proxies
   BEGIN INSERT INTO gateway_changes (proxy_id) VALUES (NEW.id); END`,
  `CREATE TRIGGER IF NOT EXISTS gateway_proxy_updated AFTER UPDATE ON proxies
   BEGIN INSERT INTO gateway_changes (proxy_id) VALUES (NEW.id); END`,
  `CREATE TRIGGER IF NOT EXISTS gateway_proxy_deleted AFTER DELETE ON proxies
   BEGIN INSERT INTO gateway_changes (proxy_id) VALUES (OLD.id); END`,
  `CREATE TRIGGER IF NOT EXISTS gateway_user_standing AFTER UPDATE ON users
   WHEN NEW.suspended IS NOT OLD.suspended OR NEW.deleted IS NOT OLD.deleted
   BEGIN INSERT INTO gateway_changes (proxy_id) SELECT id FROM proxies WHERE assigned_to_user_id = NEW.id; END`,
];

const DROPS = [
  "DROP TRIGGER IF EXISTS gateway_proxy_inserted",
  "DROP TRIGGER IF EXISTS gateway_proxy_updated",
  "DROP TRIGGER IF EXISTS gateway_proxy_deleted",
  "DROP TRIGGER IF EXISTS gateway_user_standing",
  "DROP TABLE IF EXISTS gateway_changes",
];

migrate(
  (app) => {
    app.db().newQuery(TABLE).execute();
    for (const trigger of TRIGGERS) app.db().newQuery(trigger).execute();
  },
  (app) => {
    for (const drop of DROPS) app.db().newQuery(drop).execute();
  },
);
