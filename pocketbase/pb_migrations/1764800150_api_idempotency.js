// @ts-check
// The Idempotency-Key of the developer API's changes that are not orders or payments
// (issue #18: rotate credentials, auto-renewal, the IP allowlist, API keys, webhooks): the
// answer a change got, kept (sealed, since it can hold new credentials or a new key) with
// the key and the request's hash, written in the change's own transaction, so a retry with
// the key answers the same again and never changes anything twice. Rows older than two
// days are removed by a job (the promise is 24 hours).

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "api_idempotency",
        fields: /** @type {any} */ ([
          {
            name: "user",
            type: "relation",
            required: true,
            collectionId: app.findCollectionByNameOrId("users").id,
            cascadeDelete: true,
            maxSelect: 1,
          },
          { name: "idempotency_key", type: "text", required: true, max: 255 },
          { name: "request_hash", type: "text", required: true, max: 64 },
          { name: "status", type: "number", onlyInt: true },
          { name: "response", type: "text", hidden: true },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_api_idempotency_key ON api_idempotency (user, idempotency_key)",
          "CREATE INDEX idx_api_idempotency_created ON api_idempotency (created)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("api_idempotency"));
  },
);
