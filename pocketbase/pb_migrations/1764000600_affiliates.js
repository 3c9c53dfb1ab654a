// @ts-check
// The referral programme. Read-only to clients: rows and commissions are written by hooks.

migrate(
  (app) => {
    const affiliates = new Collection({
      type: "base",
      name: "affiliates",
      listRule: '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)',
      viewRule: '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)',
      fields: /** @type {any} */ ([
        { name: "user_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
        { name: "code", type: "text", required: true, max: 32, pattern: "^[A-Z0-9]+$" },
        { name: "total_referrals", type: "number", onlyInt: true, min: 0 },
        { name: "total_earnings_cents", type: "number", onlyInt: true, min: 0 },
        { name: "pending_earnings_cents", type: "number", onlyInt: true, min: 0 },
        { name: "created", type: "autodate", onCreate: true },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ]),
      indexes: /** @type {any} */ ([
        "CREATE UNIQUE INDEX idx_affiliates_user ON affiliates (user_id)",
        "CREATE UNIQUE INDEX idx_affiliates_code ON affiliates (code)",
      ]),
    });
    app.save(affiliates);

    app.save(
      new Collection({
        type: "base",
        name: "referrals",
        listRule: '@request.auth.id != "" && (affiliate_id.user_id = @request.auth.id || @request.auth.is_admin = true)',
        viewRule: '@request.auth.id != "" && (affiliate_id.user_id = @request.auth.id || @request.auth.is_admin = true)',
        fields: /** @type {any} */ ([
          { name: "affiliate_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: affiliates.id },
          {
            name: "referred_user_id",
            type: "relation",
            required: true,
            maxSelect: 1,
            cascadeDelete: true,
            collectionId: "_pb_users_auth_",
          },
          { name: "commission_cents", type: "number", onlyInt: true, min: 0 },
          { name: "status", type: "select", required: true, maxSelect: 1, values: ["pending", "paid"] },
          { name: "paid_at", type: "date" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_referrals_referred_user ON referrals (referred_user_id)",
          "CREATE INDEX idx_referrals_affiliate_created ON referrals (affiliate_id, created)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("referrals"));
    app.delete(app.findCollectionByNameOrId("affiliates"));
  },
);
