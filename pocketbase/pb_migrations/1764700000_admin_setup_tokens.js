// @ts-check
// The first administrator on a real host (issue #17): `pocketbase admin-setup` (pocketbase/
// admin_setup.go, run by server/admin-setup.ts for the start banner and `admin create`)
// makes a one-time token, stores only its SHA-256 here and prints the token once; the page
// /console/setup?token=... creates the admin with it (POST /api/setup/admin,
// pb_hooks/lib/accounts/admin-setup.js). A token works once, for 30 minutes, optionally for
// one e-mail address. All API rules are null: only that command and the hooks touch rows.
// Also the rate limits of the public setup routes (lib/settings/rate-limits.js).

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users").id;
    app.save(
      new Collection({
        type: "base",
        name: "admin_setup_tokens",
        // No rules: null (superusers and hooks only).
        fields: /** @type {any} */ ([
          { name: "token_hash", type: "text", required: true, hidden: true, min: 64, max: 64, pattern: "^[0-9a-f]{64}$" },
          { name: "email", type: "text", max: 255 },
          { name: "expires_at", type: "date", required: true },
          { name: "used_at", type: "date" },
          { name: "used_by", type: "relation", required: false, maxSelect: 1, cascadeDelete: false, collectionId: users },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE UNIQUE INDEX idx_admin_setup_tokens_token_hash ON admin_setup_tokens (token_hash)"]),
      }),
    );
    /** @type {typeof import("../pb_hooks/lib/settings/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/settings/rate-limits.js`);
    limits.addMissingDefaultRules(app);
  },
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/settings/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/settings/rate-limits.js`);
    limits.removeRules(app, ["POST /api/setup/admin", "POST /api/setup/check"]);
    app.delete(app.findCollectionByNameOrId("admin_setup_tokens"));
  },
);
