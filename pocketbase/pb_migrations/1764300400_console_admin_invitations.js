// @ts-check
// Admin invitations: the only way to become an admin without an existing admin granting
// the right to an account. An admin makes a link (/console/register?token=...), only the
// token's SHA-256 is stored; it works once, for 24 hours, optionally for one e-mail
// address, while the admin_registration_enabled setting is "true". All API rules are
// null: admins use the /api/admin/invitations routes, invitees the /api/shop/ ones
// (pb_hooks/console-settings.pb.js); superusers may edit rows in the dashboard (e.g.
// shorten expires_at).

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users").id;
    app.save(
      new Collection({
        type: "base",
        name: "admin_invitations",
        // No rules: null (superusers and hooks only).
        fields: /** @type {any} */ ([
          { name: "token_hash", type: "text", required: true, hidden: true, min: 64, max: 64, pattern: "^[0-9a-f]{64}$" },
          { name: "created_by", type: "relation", required: false, maxSelect: 1, cascadeDelete: false, collectionId: users },
          { name: "email", type: "text", max: 255 },
          { name: "expires_at", type: "date", required: true },
          { name: "used_at", type: "date" },
          { name: "used_by", type: "relation", required: false, maxSelect: 1, cascadeDelete: false, collectionId: users },
          { name: "revoked_at", type: "date" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_admin_invitations_token_hash ON admin_invitations (token_hash)",
          "CREATE INDEX idx_admin_invitations_pending ON admin_invitations (used_at, revoked_at, expires_at)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("admin_invitations"));
  },
);
