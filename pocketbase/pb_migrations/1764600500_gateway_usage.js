// @ts-check
// The gateway's metering and limits (issue #16).
// - proxy_usage: one row per proxy and UTC hour: bytes up (client -> target) and down,
//   connections, failed connections. The gateway adds to them at least every 5 seconds
//   (INSERT ... ON CONFLICT(proxy_id, hour) DO UPDATE), so they survive restarts.
//   user_id is the proxy's owner when the traffic flowed; owners read their own rows,
//   admins all; only the server writes (no create, update or delete rule: superusers only).
// - gateway_stats: one row per gateway process and UTC hour: connections that reached
//   their target and that failed, a histogram of connect times (ms buckets, JSON), and
//   the seconds the gateway was up in that hour. The console's performance figures come
//   from these (success rate, median connect time, uptime); admins only.
// - proxies.bandwidth_quota_bytes (a month, UTC calendar) and proxies.max_connections
//   (concurrent): 0 = no limit. Past them the gateway refuses new connections with a text
//   saying which limit. pricing_plans carry the same two (bandwidth_quota_gb,
//   max_connections), copied onto the proxies a purchase assigns.

const OWNER_OR_ADMIN = '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)';
const ADMIN = "@request.auth.is_admin = true";

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "proxy_usage",
        listRule: OWNER_OR_ADMIN,
        viewRule: OWNER_OR_ADMIN,
        fields: /** @type {any} */ ([
          { name: "proxy_id", type: "text", required: true, max: 15 },
          { name: "user_id", type: "text", max: 15 },
          { name: "hour", type: "date", required: true },
          { name: "bytes_up", type: "number", onlyInt: true, min: 0 },
          { name: "bytes_down", type: "number", onlyInt: true, min: 0 },
          { name: "connections", type: "number", onlyInt: true, min: 0 },
          { name: "failed_connections", type: "number", onlyInt: true, min: 0 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_proxy_usage_proxy_hour ON proxy_usage (proxy_id, hour)",
          "CREATE INDEX idx_proxy_usage_user_hour ON proxy_usage (user_id, hour)",
          "CREATE INDEX idx_proxy_usage_hour ON proxy_usage (hour)",
        ]),
      }),
    );
    app.save(
      new Collection({
        type: "base",
        name: "gateway_stats",
        listRule: ADMIN,
        viewRule: ADMIN,
        fields: /** @type {any} */ ([
          { name: "gateway", type: "text", required: true, max: 100 },
          { name: "hour", type: "date", required: true },
          { name: "connections_ok", type: "number", onlyInt: true, min: 0 },
          { name: "connections_failed", type: "number", onlyInt: true, min: 0 },
          { name: "connect_ms_histogram", type: "json", maxSize: 2000 },
          { name: "up_seconds", type: "number", onlyInt: true, min: 0 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_gateway_stats_gateway_hour ON gateway_stats (gateway, hour)",
          "CREATE INDEX idx_gateway_stats_hour ON gateway_stats (hour)",
        ]),
      }),
    );

    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.add(new NumberField({ name: "bandwidth_quota_bytes", onlyInt: true, min: 0 }));
    proxies.fields.add(new NumberField({ name: "max_connections", onlyInt: true, min: 0, max: 100000 }));
    app.save(proxies);

    const plans = app.findCollectionByNameOrId("pricing_plans");
    plans.fields.add(new NumberField({ name: "bandwidth_quota_gb", onlyInt: true, min: 0, max: 1000000 }));
    plans.fields.add(new NumberField({ name: "max_connections", onlyInt: true, min: 0, max: 100000 }));
    app.save(plans);
  },
  (app) => {
    const plans = app.findCollectionByNameOrId("pricing_plans");
    plans.fields.removeByName("bandwidth_quota_gb");
    plans.fields.removeByName("max_connections");
    app.save(plans);
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.removeByName("bandwidth_quota_bytes");
    proxies.fields.removeByName("max_connections");
    app.save(proxies);
    app.delete(app.findCollectionByNameOrId("gateway_stats"));
    app.delete(app.findCollectionByNameOrId("proxy_usage"));
  },
);
