// @ts-check
// API keys (issue #18): a customer's keys for the developer API (/api/v1). A key is shown
// once when made and stored only as its SHA-256 hash; its prefix (psk_live_ and a few more
// characters) tells keys apart in lists and lets secret scanners find leaked ones. Only the
// server writes them (the /api/v1/api-keys routes); the Go middleware (apikeys.go) reads them
// on every keyed request. proxy_orders.api_key_id names the key an order was made with:
// what a key spent this month, against its cap, is the sum of its orders.

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "api_keys",
        fields: /** @type {any} */ ([
          {
            name: "user",
            type: "relation",
            required: true,
            collectionId: app.findCollectionByNameOrId("users").id,
            cascadeDelete: true,
            maxSelect: 1,
          },
          { name: "name", type: "text", required: true, max: 100 },
          { name: "prefix", type: "text", required: true, max: 20 },
          { name: "key_hash", type: "text", required: true, max: 64, hidden: true },
          { name: "scopes", type: "json", required: true, maxSize: 200 },
          { name: "expires_at", type: "date" },
          { name: "ip_allowlist", type: "json", maxSize: 10000 },
          { name: "spend_cap_cents", type: "number", onlyInt: true, min: 0 },
          { name: "last_used_at", type: "date" },
          { name: "last_used_ip", type: "text", max: 45 },
          { name: "revoked_at", type: "date" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_api_keys_hash ON api_keys (key_hash)",
          "CREATE INDEX idx_api_keys_user ON api_keys (user, created)",
        ]),
      }),
    );
    const orders = app.findCollectionByNameOrId("proxy_orders");
    orders.fields.add(new TextField({ name: "api_key_id", max: 15 }));
    orders.addIndex("idx_proxy_orders_api_key", false, "api_key_id, created", "api_key_id != ''");
    app.save(orders);
  },
  (app) => {
    const orders = app.findCollectionByNameOrId("proxy_orders");
    orders.removeIndex("idx_proxy_orders_api_key");
    orders.fields.removeByName("api_key_id");
    app.save(orders);
    app.delete(app.findCollectionByNameOrId("api_keys"));
  },
);
