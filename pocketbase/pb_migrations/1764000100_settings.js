// @ts-check
// Site settings as key/value rows. Everyone reads them (the public site renders from
// them); only admins change them.

const ADMIN = "@request.auth.is_admin = true";

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "settings",
        listRule: "",
        viewRule: "",
        createRule: ADMIN,
        updateRule: ADMIN,
        deleteRule: ADMIN,
        fields: /** @type {any} */ ([
          { name: "key", type: "text", required: true, max: 100, pattern: "^[a-z0-9_]+$" },
          { name: "value", type: "text", max: 5000 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE UNIQUE INDEX idx_settings_key ON settings (key)"]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("settings"));
  },
);
