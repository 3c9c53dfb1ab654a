// @ts-check
// The prepaid balance and its ledger. Clients only read their own rows; every write
// goes through pb_hooks/lib/money/ledger.js, which keeps balance = sum(amount_cents).

const OWN_OR_ADMIN = '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)';

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "balances",
        listRule: OWN_OR_ADMIN,
        viewRule: OWN_OR_ADMIN,
        fields: /** @type {any} */ ([
          { name: "user_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
          { name: "balance_cents", type: "number", onlyInt: true, min: 0 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE UNIQUE INDEX idx_balances_user ON balances (user_id)"]),
      }),
    );
    app.save(
      new Collection({
        type: "base",
        name: "transactions",
        listRule: OWN_OR_ADMIN,
        viewRule: OWN_OR_ADMIN,
        fields: /** @type {any} */ ([
          { name: "user_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
          { name: "type", type: "select", required: true, maxSelect: 1, values: ["CREDIT", "DEBIT", "PROXY_PURCHASE", "REFUND"] },
          // required = non-zero: a ledger row always moves money.
          { name: "amount_cents", type: "number", required: true, onlyInt: true },
          { name: "balance_after_cents", type: "number", onlyInt: true, min: 0 },
          { name: "description", type: "text", max: 500 },
          { name: "stripe_payment_intent_id", type: "text", max: 255 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE INDEX idx_transactions_user_created ON transactions (user_id, created)",
          "CREATE INDEX idx_transactions_type_created ON transactions (type, created)",
          "CREATE INDEX idx_transactions_created ON transactions (created)",
          // A payment is credited at most once (webhook retries, double redirects).
          "CREATE UNIQUE INDEX idx_transactions_payment_intent ON transactions (stripe_payment_intent_id) WHERE stripe_payment_intent_id != ''",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("transactions"));
    app.delete(app.findCollectionByNameOrId("balances"));
  },
);
