// @ts-check
// A proxy's monthly usage is counted per term of ownership (security review #26, findings
// 12 and 5): a resold proxy starts at zero for its new owner.
// - proxies.term_started_at (hidden date): when the current owner's term began. A purchase
//   sets it (lib/proxies/purchase.js: the only way a proxy gets an owner); renewals keep it;
//   a release leaves it (a proxy without an owner has no term). Existing owned proxies get
//   the time of their owner's latest purchase order holding them ("" when there is none:
//   then the whole UTC month of the owner's rows counts, as before).
// - proxy_usage rows are one per proxy, owner and hour, (proxy_id, user_id, hour) unique, so
//   the bytes of the old and the new owner in the same hour stay apart. The gateway's upsert
//   (pocketbase/gateway/sqlsource.go) conflicts on the same three columns and takes the owner
//   from the proxy row.
// - proxy_term_usage (an SQL view, not a collection): the proxy_usage rows of each proxy's
//   current term: its current owner's rows from the hour the term began. "This month's
//   usage" everywhere (the gateway's quota, SQLSource.MonthUsage; the customer's card, the
//   usage routes, lib/proxies/usage.js; proxy.quota_reached, lib/webhooks/events.js) is this
//   view's bytes since the UTC month began: one definition for Go and the hooks.
// - Stored counts are held at MAX_ROW_COUNT (2^50, a PiB) each, as the gateway now clamps
//   what it adds, so no row can overflow SQLite's integers (a sum over them would fail).

const MAX_ROW_COUNT = 1125899906842624;

const VIEW = `CREATE VIEW IF NOT EXISTS proxy_term_usage AS
  SELECT u.proxy_id, u.user_id, u.hour, u.bytes_up, u.bytes_down, u.connections, u.failed_connections
  FROM proxy_usage u JOIN proxies p ON p.id = u.proxy_id
  WHERE p.assigned_to_user_id != '' AND u.user_id = p.assigned_to_user_id
    AND u.hour >= CASE WHEN COALESCE(p.term_started_at, '') = '' THEN ''
                       ELSE substr(p.term_started_at, 1, 13) || ':00:00.000Z' END`;

migrate(
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.add(new DateField({ name: "term_started_at", hidden: true }));
    app.save(proxies);
    app
      .db()
      .newQuery(
        `UPDATE proxies SET term_started_at = COALESCE((
           SELECT MAX(o.created) FROM proxy_orders o, json_each(o.items) j
           WHERE o.user_id = proxies.assigned_to_user_id AND o.kind = 'purchase' AND json_extract(j.value, '$.id') = proxies.id), '')
         WHERE assigned_to_user_id != ''`,
      )
      .execute();

    app
      .db()
      .newQuery(
        `UPDATE proxy_usage SET bytes_up = MIN(bytes_up, {:max}), bytes_down = MIN(bytes_down, {:max}),
           connections = MIN(connections, {:max}), failed_connections = MIN(failed_connections, {:max})
         WHERE bytes_up > {:max} OR bytes_down > {:max} OR connections > {:max} OR failed_connections > {:max}`,
      )
      .bind({ max: MAX_ROW_COUNT })
      .execute();
    const usage = app.findCollectionByNameOrId("proxy_usage");
    usage.removeIndex("idx_proxy_usage_proxy_hour");
    usage.addIndex("idx_proxy_usage_proxy_user_hour", true, "proxy_id, user_id, hour", "");
    app.save(usage);

    app.db().newQuery(VIEW).execute();
  },
  (app) => {
    app.db().newQuery("DROP VIEW IF EXISTS proxy_term_usage").execute();
    // Back to one row per proxy and hour: the rows of one hour added into its newest owner's.
    app
      .db()
      .newQuery(
        `UPDATE proxy_usage SET
           bytes_up = (SELECT CAST(MIN(TOTAL(o.bytes_up), {:max}) AS INTEGER) FROM proxy_usage o WHERE o.proxy_id = proxy_usage.proxy_id AND o.hour = proxy_usage.hour),
           bytes_down = (SELECT CAST(MIN(TOTAL(o.bytes_down), {:max}) AS INTEGER) FROM proxy_usage o WHERE o.proxy_id = proxy_usage.proxy_id AND o.hour = proxy_usage.hour),
           connections = (SELECT CAST(MIN(TOTAL(o.connections), {:max}) AS INTEGER) FROM proxy_usage o WHERE o.proxy_id = proxy_usage.proxy_id AND o.hour = proxy_usage.hour),
           failed_connections = (SELECT CAST(MIN(TOTAL(o.failed_connections), {:max}) AS INTEGER) FROM proxy_usage o WHERE o.proxy_id = proxy_usage.proxy_id AND o.hour = proxy_usage.hour)
         WHERE rowid = (SELECT o.rowid FROM proxy_usage o WHERE o.proxy_id = proxy_usage.proxy_id AND o.hour = proxy_usage.hour ORDER BY o.updated DESC, o.rowid DESC LIMIT 1)
           AND (SELECT COUNT(*) FROM proxy_usage o WHERE o.proxy_id = proxy_usage.proxy_id AND o.hour = proxy_usage.hour) > 1`,
      )
      .bind({ max: MAX_ROW_COUNT })
      .execute();
    app
      .db()
      .newQuery(
        `DELETE FROM proxy_usage WHERE rowid != (SELECT o.rowid FROM proxy_usage o
           WHERE o.proxy_id = proxy_usage.proxy_id AND o.hour = proxy_usage.hour ORDER BY o.updated DESC, o.rowid DESC LIMIT 1)`,
      )
      .execute();
    const usage = app.findCollectionByNameOrId("proxy_usage");
    usage.removeIndex("idx_proxy_usage_proxy_user_hour");
    usage.addIndex("idx_proxy_usage_proxy_hour", true, "proxy_id, hour", "");
    app.save(usage);
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.removeByName("term_started_at");
    app.save(proxies);
  },
);
