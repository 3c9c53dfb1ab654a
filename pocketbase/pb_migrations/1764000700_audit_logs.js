// @ts-check
// Admin actions, written only by pb_hooks/audit.pb.js. Admins read; nobody edits.

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "audit_logs",
        listRule: "@request.auth.is_admin = true",
        viewRule: "@request.auth.is_admin = true",
        fields: /** @type {any} */ ([
          // Kept when the admin account is deleted: the log outlives its author.
          { name: "admin_id", type: "relation", maxSelect: 1, cascadeDelete: false, collectionId: "_pb_users_auth_" },
          { name: "action", type: "text", required: true, max: 100 },
          { name: "target_type", type: "text", max: 100 },
          { name: "target_id", type: "text", max: 100 },
          { name: "details", type: "json", maxSize: 100000 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE INDEX idx_audit_logs_created ON audit_logs (created)",
          "CREATE INDEX idx_audit_logs_action_created ON audit_logs (action, created)",
          "CREATE INDEX idx_audit_logs_admin_created ON audit_logs (admin_id, created)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("audit_logs"));
  },
);
