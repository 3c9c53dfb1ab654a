// @ts-check
// Proxy purchases and renewals: one `proxy_orders` row per order, naming its proxies, its
// ledger row (a refund later credits it back and releases the proxies) and the
// Idempotency-Key it was made with. Proxies get
// a per-proxy auto-renew switch and the time their expiry reminder went out.
// Written by pb_hooks/proxies.pb.js and the expiry job only; customers read their own.

const OWN_OR_ADMIN = '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)';

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "proxy_orders",
        listRule: OWN_OR_ADMIN,
        viewRule: OWN_OR_ADMIN,
        fields: /** @type {any} */ ([
          { name: "user_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
          { name: "kind", type: "select", required: true, maxSelect: 1, values: ["purchase", "renewal"] },
          { name: "proxy_type", type: "select", maxSelect: 1, values: ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"] },
          { name: "country", type: "text", max: 100 },
          { name: "state", type: "text", max: 100 },
          { name: "city", type: "text", max: 100 },
          { name: "quantity", type: "number", required: true, onlyInt: true, min: 1 },
          { name: "total_cents", type: "number", required: true, onlyInt: true, min: 1 },
          // The proxies of the order with the unit price each was charged: [{id, unit_price_cents}].
          { name: "items", type: "json", maxSize: 50000 },
          {
            name: "transaction_id",
            type: "relation",
            maxSelect: 1,
            cascadeDelete: false,
            collectionId: app.findCollectionByNameOrId("transactions").id,
          },
          { name: "status", type: "select", required: true, maxSelect: 1, values: ["completed", "refunded"] },
          { name: "refunded_at", type: "date" },
          // The Idempotency-Key the order was made with, and a hash of its request (lib/money/idempotency.js).
          { name: "idempotency_key", type: "text", max: 255 },
          { name: "request_hash", type: "text", max: 64, hidden: true },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE INDEX idx_proxy_orders_user_created ON proxy_orders (user_id, created)",
          "CREATE INDEX idx_proxy_orders_created ON proxy_orders (created)",
          "CREATE UNIQUE INDEX idx_proxy_orders_idempotency ON proxy_orders (user_id, idempotency_key) WHERE idempotency_key != ''",
        ]),
      }),
    );

    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.add(new BoolField({ name: "auto_renew" }));
    proxies.fields.add(new DateField({ name: "expiry_notice_sent_at" }));
    // The stock query groups AVAILABLE proxies of a type by country, state and city: with
    // city in the index it is answered from the index alone.
    proxies.removeIndex("idx_proxies_inventory");
    proxies.addIndex("idx_proxies_inventory", false, "status, type, country, state, city", "");
    app.save(proxies);
  },
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.removeByName("auto_renew");
    proxies.fields.removeByName("expiry_notice_sent_at");
    proxies.removeIndex("idx_proxies_inventory");
    proxies.addIndex("idx_proxies_inventory", false, "status, type, country, state", "");
    app.save(proxies);
    app.delete(app.findCollectionByNameOrId("proxy_orders"));
  },
);
