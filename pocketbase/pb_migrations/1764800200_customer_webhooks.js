// @ts-check
// Customer webhooks (issue #18): a customer's endpoints and the durable delivery queue.
// `webhook_endpoints` holds where and what to send (the signing secret sealed like proxy
// passwords, pb_hooks/lib/webhooks/queue.js sealSecret); `webhook_deliveries` is the queue
// itself: pb_hooks/lib/webhooks/queue.js enqueue() adds pending rows inside the caller's
// transaction, and the Go dispatcher (pocketbase/webhooks) claims due rows, signs and sends
// them (Standard Webhooks), and writes each attempt's outcome, retrying with backoff for 24
// hours. All API rules are null: only the hooks (and superusers) touch these rows.

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users").id;
    const endpoints = new Collection({
      type: "base",
      name: "webhook_endpoints",
      // No rules: null (superusers and hooks only).
      fields: /** @type {any} */ ([
        { name: "user", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: users },
        { name: "url", type: "text", required: true, max: 2000 },
        { name: "description", type: "text", max: 200 },
        { name: "events", type: "json", maxSize: 2000 },
        { name: "secret", type: "text", required: true, hidden: true, max: 500 },
        { name: "balance_low_cents", type: "number", onlyInt: true, min: 0 },
        { name: "enabled", type: "bool" },
        { name: "disabled_reason", type: "text", max: 500 },
        { name: "created", type: "autodate", onCreate: true },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ]),
      indexes: /** @type {any} */ (["CREATE INDEX idx_webhook_endpoints_user ON webhook_endpoints (user)"]),
    });
    app.save(endpoints);

    app.save(
      new Collection({
        type: "base",
        name: "webhook_deliveries",
        // No rules: null (superusers and hooks only).
        fields: /** @type {any} */ ([
          { name: "endpoint", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: endpoints.id },
          { name: "user", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: users },
          { name: "event", type: "text", required: true, max: 100 },
          { name: "message_id", type: "text", required: true, max: 100 },
          { name: "payload", type: "text", required: true, max: 1000000 },
          { name: "status", type: "select", required: true, maxSelect: 1, values: ["pending", "delivering", "succeeded", "failed"] },
          { name: "attempts", type: "number", onlyInt: true, min: 0 },
          { name: "next_attempt_at", type: "date" },
          { name: "last_attempt_at", type: "date" },
          { name: "last_status_code", type: "number", onlyInt: true, min: 0 },
          { name: "last_response_ms", type: "number", onlyInt: true, min: 0 },
          { name: "last_error", type: "text", max: 500 },
          { name: "delivered_at", type: "date" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          // Not unique: a resend is a new row with the same webhook-id (Standard Webhooks: the
          // id "will be the same when the same webhook is being resent"), so receivers that
          // de-duplicate on it stay idempotent. Each first send gets a fresh "msg_" id.
          "CREATE INDEX idx_webhook_deliveries_message_id ON webhook_deliveries (message_id)",
          "CREATE INDEX idx_webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)",
          "CREATE INDEX idx_webhook_deliveries_endpoint ON webhook_deliveries (endpoint, created)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("webhook_deliveries"));
    app.delete(app.findCollectionByNameOrId("webhook_endpoints"));
  },
);
