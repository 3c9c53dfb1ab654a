// @ts-check
// The console's Analytics, Audit Logs and Affiliate Management (pb_hooks/console-insights.pb.js):
// indexes their GROUP BY and list queries read, and `referral_payouts`, one row per
// "Pay" of a referral in the console (the money leaves outside the shop; balances do not
// change). Payout rows carry the Idempotency-Key of the request that made them, so a
// retried "Pay" answers the first payout again. Written by the pay route only.

migrate(
  (app) => {
    // Analytics: new users per day (created range) ...
    const users = app.findCollectionByNameOrId("users");
    users.addIndex("idx_users_created", false, "created", "");
    app.save(users);

    // ... money received per day and in total (answered from the index alone).
    const payments = app.findCollectionByNameOrId("payments");
    payments.addIndex("idx_payments_status_paid_at", false, "status, paid_at, amount_cents", "");
    app.save(payments);

    // Affiliate Management lists affiliates with a verified referral or earnings, most
    // pending first; the partial index holds only those (a few among all users) and covers
    // the stats.
    const affiliates = app.findCollectionByNameOrId("affiliates");
    affiliates.addIndex(
      "idx_affiliates_console",
      false,
      "pending_earnings_cents DESC, total_earnings_cents DESC, total_referrals DESC",
      "total_referrals > 0 OR total_earnings_cents > 0",
    );
    app.save(affiliates);

    const referrals = app.findCollectionByNameOrId("referrals");
    app.save(
      new Collection({
        type: "base",
        name: "referral_payouts",
        listRule: "@request.auth.is_admin = true",
        viewRule: "@request.auth.is_admin = true",
        fields: /** @type {any} */ ([
          { name: "affiliate_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: affiliates.id },
          { name: "referral_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: referrals.id },
          // Kept when the admin account is deleted, like the audit log.
          { name: "admin_id", type: "relation", maxSelect: 1, cascadeDelete: false, collectionId: "_pb_users_auth_" },
          { name: "amount_cents", type: "number", required: true, onlyInt: true, min: 1 },
          // The commissions this payout paid.
          { name: "commission_ids", type: "json", maxSize: 100000 },
          { name: "idempotency_key", type: "text", max: 255 },
          { name: "request_hash", type: "text", max: 64, hidden: true },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE INDEX idx_referral_payouts_referral_created ON referral_payouts (referral_id, created)",
          "CREATE UNIQUE INDEX idx_referral_payouts_idempotency ON referral_payouts (admin_id, idempotency_key) WHERE idempotency_key != ''",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("referral_payouts"));
    const affiliates = app.findCollectionByNameOrId("affiliates");
    affiliates.removeIndex("idx_affiliates_console");
    app.save(affiliates);
    const payments = app.findCollectionByNameOrId("payments");
    payments.removeIndex("idx_payments_status_paid_at");
    app.save(payments);
    const users = app.findCollectionByNameOrId("users");
    users.removeIndex("idx_users_created");
    app.save(users);
  },
);
