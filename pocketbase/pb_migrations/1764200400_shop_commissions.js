// @ts-check
// Affiliate commissions: one row per paid credit purchase of a referred customer (20% of
// the money paid, never of bonus credits). referrals.commission_cents is the sum of its
// commissions and the affiliate's earnings follow them (lib/affiliate/affiliate.js). Affiliates
// read their own; nobody writes through the API.

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "commissions",
        listRule: '@request.auth.id != "" && (affiliate_id.user_id = @request.auth.id || @request.auth.is_admin = true)',
        viewRule: '@request.auth.id != "" && (affiliate_id.user_id = @request.auth.id || @request.auth.is_admin = true)',
        fields: /** @type {any} */ ([
          {
            name: "affiliate_id",
            type: "relation",
            required: true,
            maxSelect: 1,
            cascadeDelete: true,
            collectionId: app.findCollectionByNameOrId("affiliates").id,
          },
          {
            name: "referral_id",
            type: "relation",
            required: true,
            maxSelect: 1,
            cascadeDelete: true,
            collectionId: app.findCollectionByNameOrId("referrals").id,
          },
          {
            name: "payment_id",
            type: "relation",
            required: true,
            maxSelect: 1,
            cascadeDelete: true,
            collectionId: app.findCollectionByNameOrId("payments").id,
          },
          { name: "amount_cents", type: "number", required: true, onlyInt: true, min: 1 },
          { name: "status", type: "select", required: true, maxSelect: 1, values: ["pending", "paid"] },
          { name: "paid_at", type: "date" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ ([
          "CREATE UNIQUE INDEX idx_commissions_payment ON commissions (payment_id)",
          "CREATE INDEX idx_commissions_affiliate_created ON commissions (affiliate_id, created)",
          "CREATE INDEX idx_commissions_referral ON commissions (referral_id)",
        ]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("commissions"));
  },
);
