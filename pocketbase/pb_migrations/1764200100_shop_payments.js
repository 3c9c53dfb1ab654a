// @ts-check
// Credit purchases: one `payments` row per attempt, holding the money actually received
// (amount_cents) apart from the credits and bonus it buys, so revenue is never inflated
// by bonuses. Written by pb_hooks/payments.pb.js only; customers read their own.

const OWN_OR_ADMIN = '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)';

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "payments",
        listRule: OWN_OR_ADMIN,
        viewRule: OWN_OR_ADMIN,
        fields: /** @type {any} */ ([
          { name: "user_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
          { name: "package_id", type: "text", required: true, max: 50 },
          // What the customer pays, in cents of `currency`.
          { name: "amount_cents", type: "number", required: true, onlyInt: true, min: 1 },
          { name: "currency", type: "text", required: true, max: 3 },
          { name: "credits_cents", type: "number", required: true, onlyInt: true, min: 1 },
          { name: "bonus_cents", type: "number", onlyInt: true, min: 0 },
          { name: "provider", type: "select", required: true, maxSelect: 1, values: ["stripe", "test"] },
          { name: "provider_session_id", type: "text", max: 255 },
          // Where the customer pays (Stripe Checkout); empty for the test provider.
          { name: "checkout_url", type: "text", max: 2000 },
          { name: "provider_payment_id", type: "text", max: 255 },
          { name: "status", type: "select", required: true, maxSelect: 1, values: ["pending", "paid", "failed"] },
          { name: "paid_at", type: "date" },
          { name: "failure_reason", type: "text", max: 500 },
          // The Idempotency-Key of the checkout, and a hash of its request (lib/money/idempotency.js).
          { name: "idempotency_key", type: "text", max: 255 },
          { name: "request_hash", type: "text", max: 64, hidden: true },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE INDEX idx_payments_user_created ON payments (user_id, created)",
          "CREATE INDEX idx_payments_status_created ON payments (status, created)",
          "CREATE INDEX idx_payments_session ON payments (provider_session_id)",
          "CREATE UNIQUE INDEX idx_payments_idempotency ON payments (user_id, idempotency_key) WHERE idempotency_key != ''",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("payments"));
  },
);
