// @ts-check
// Plans shown on the public pages. Anyone sees active plans; admins see and edit all.

const ADMIN = "@request.auth.is_admin = true";

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "pricing_plans",
        listRule: "active = true || @request.auth.is_admin = true",
        viewRule: "active = true || @request.auth.is_admin = true",
        createRule: ADMIN,
        updateRule: ADMIN,
        deleteRule: ADMIN,
        fields: /** @type {any} */ ([
          { name: "name", type: "text", required: true, max: 100 },
          { name: "type", type: "select", required: true, maxSelect: 1, values: ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"] },
          { name: "price_cents", type: "number", required: true, onlyInt: true, min: 1 },
          { name: "features", type: "json", maxSize: 20000 },
          { name: "popular", type: "bool" },
          { name: "active", type: "bool" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE INDEX idx_pricing_plans_active_price ON pricing_plans (active, price_cents)"]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("pricing_plans"));
  },
);
