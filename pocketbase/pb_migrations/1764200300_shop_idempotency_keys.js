// @ts-check
// Idempotency-Key records of the money routes (lib/idempotency.js): the first successful
// answer per (user, key), replayed for a retry with the same body. Never exposed through
// the API (all rules null); the expiry job deletes rows older than 48 hours.

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "idempotency_keys",
        fields: /** @type {any} */ ([
          { name: "user_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
          { name: "key", type: "text", required: true, max: 255 },
          { name: "route", type: "text", required: true, max: 200 },
          { name: "request_hash", type: "text", required: true, max: 64 },
          { name: "response", type: "json", maxSize: 2000000 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_idempotency_keys_user_key ON idempotency_keys (user_id, key)",
          "CREATE INDEX idx_idempotency_keys_created ON idempotency_keys (created)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("idempotency_keys"));
  },
);
