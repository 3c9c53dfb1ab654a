// @ts-check
// Proxy inventory. Customers see the proxies assigned to them (credentials included);
// only admins and server code (purchases) change inventory, owner or status.

const ADMIN = "@request.auth.is_admin = true";
const ASSIGNED_TO_ME_OR_ADMIN = '@request.auth.id != "" && (assigned_to_user_id = @request.auth.id || @request.auth.is_admin = true)';

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "proxies",
        listRule: ASSIGNED_TO_ME_OR_ADMIN,
        viewRule: ASSIGNED_TO_ME_OR_ADMIN,
        createRule: ADMIN,
        updateRule: ADMIN,
        deleteRule: ADMIN,
        fields: /** @type {any} */ ([
          { name: "host", type: "text", required: true, max: 255 },
          { name: "port", type: "number", required: true, onlyInt: true, min: 1, max: 65535 },
          { name: "username", type: "text", required: true, max: 100 },
          { name: "password", type: "text", required: true, max: 255 },
          { name: "type", type: "select", required: true, maxSelect: 1, values: ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"] },
          { name: "country", type: "text", required: true, max: 100 },
          { name: "state", type: "text", max: 100 },
          { name: "city", type: "text", max: 100 },
          { name: "status", type: "select", required: true, maxSelect: 1, values: ["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"] },
          { name: "assigned_to_user_id", type: "relation", maxSelect: 1, cascadeDelete: false, collectionId: "_pb_users_auth_" },
          { name: "expires_at", type: "date" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_proxies_endpoint ON proxies (host, port, username)",
          "CREATE INDEX idx_proxies_owner_status ON proxies (assigned_to_user_id, status)",
          "CREATE INDEX idx_proxies_inventory ON proxies (status, type, country, state)",
          "CREATE INDEX idx_proxies_status_expires ON proxies (status, expires_at)",
          "CREATE INDEX idx_proxies_created ON proxies (created)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("proxies"));
  },
);
