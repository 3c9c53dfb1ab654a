// @ts-check
// The contact form. Anyone may send (rate limited, see 1764000900_app_settings.js);
// only admins read. The sender's IP is kept hidden for abuse handling.

const ADMIN = "@request.auth.is_admin = true";

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "contact_messages",
        listRule: ADMIN,
        viewRule: ADMIN,
        createRule: "",
        updateRule: ADMIN,
        deleteRule: ADMIN,
        fields: /** @type {any} */ ([
          { name: "name", type: "text", required: true, min: 2, max: 100 },
          { name: "email", type: "email", required: true },
          { name: "subject", type: "text", required: true, min: 5, max: 200 },
          { name: "message", type: "text", required: true, min: 20, max: 5000 },
          { name: "type", type: "select", required: true, maxSelect: 1, values: ["general", "technical", "billing", "partnership"] },
          { name: "ip", type: "text", max: 64, hidden: true },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE INDEX idx_contact_messages_created ON contact_messages (created)"]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("contact_messages"));
  },
);
