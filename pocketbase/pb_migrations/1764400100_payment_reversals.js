// @ts-check
// Stripe refunds and chargebacks (security review #13, findings 4 and 10):
// - payments gain the statuses "refunded", "partially_refunded" and "disputed", the cents
//   Stripe refunded (cumulative) and disputed, the dispute's outcome, and the card's
//   fingerprint (hidden: read by the server only, for referral checks).
// - commissions gain "reversed" (a pending commission cancelled in full by a reversal),
//   `reversed_cents` (how much of a pending commission a reversal took back), and clawback
//   rows: a negative amount booked against future payouts when the commission was already
//   paid out. `reference` tells the rows of one payment apart: "" for the commission
//   itself, one value per reversal step for clawbacks (and for the commission that a
//   dispute won gives back).
// - balances.balance_cents and transactions.balance_after_cents may be negative: a debt left
//   by a reversed payment (the only way below zero, lib/money/ledger.js allowDebt).
// - Commissions still pending that test-provider payments earned before test payments
//   stopped earning (finding 2) are no money owed: they become "reversed" and leave the
//   affiliates' and referrals' earnings.

migrate(
  (app) => {
    const payments = app.findCollectionByNameOrId("payments");
    payments.fields.add(new TextField({ name: "card_fingerprint", max: 255, hidden: true }));
    payments.fields.add(new NumberField({ name: "refunded_cents", onlyInt: true, min: 0 }));
    payments.fields.add(new NumberField({ name: "disputed_cents", onlyInt: true, min: 0 }));
    payments.fields.add(new SelectField({ name: "dispute_status", maxSelect: 1, values: ["open", "won", "lost"] }));
    payments.fields.add(new DateField({ name: "reversed_at" }));
    const status = /** @type {core.SelectField} */ (payments.fields.getByName("status"));
    status.values = ["pending", "paid", "failed", "partially_refunded", "refunded", "disputed"];
    payments.addIndex("idx_payments_provider_payment", false, "provider_payment_id", "provider_payment_id != ''");
    payments.addIndex("idx_payments_card_fingerprint", false, "card_fingerprint", "card_fingerprint != ''");
    app.save(payments);

    const commissions = app.findCollectionByNameOrId("commissions");
    const amount = /** @type {core.NumberField} */ (commissions.fields.getByName("amount_cents"));
    amount.min = /** @type {any} */ (null); // clawbacks are negative
    commissions.fields.add(new NumberField({ name: "reversed_cents", onlyInt: true, min: 0 }));
    commissions.fields.add(new TextField({ name: "reference", max: 100 }));
    const cstatus = /** @type {core.SelectField} */ (commissions.fields.getByName("status"));
    cstatus.values = ["pending", "paid", "reversed"];
    commissions.removeIndex("idx_commissions_payment");
    commissions.addIndex("idx_commissions_payment", true, "payment_id, reference", "");
    app.save(commissions);

    const testPending = `SELECT COALESCE(SUM(c.amount_cents), 0) FROM commissions c JOIN payments p ON p.id = c.payment_id
      WHERE p.provider = 'test' AND c.status = 'pending'`;
    app
      .db()
      .newQuery(
        `UPDATE affiliates SET pending_earnings_cents = pending_earnings_cents - (${testPending} AND c.affiliate_id = affiliates.id),
           total_earnings_cents = total_earnings_cents - (${testPending} AND c.affiliate_id = affiliates.id)`,
      )
      .execute();
    app
      .db()
      .newQuery(`UPDATE referrals SET commission_cents = commission_cents - (${testPending} AND c.referral_id = referrals.id)`)
      .execute();
    app
      .db()
      .newQuery(
        `UPDATE commissions SET status = 'reversed', reversed_cents = amount_cents
         WHERE status = 'pending' AND payment_id IN (SELECT id FROM payments WHERE provider = 'test')`,
      )
      .execute();

    for (const [name, field] of [
      ["balances", "balance_cents"],
      ["transactions", "balance_after_cents"],
      ["affiliates", "pending_earnings_cents"], // a clawback of a paid commission, until netted
    ]) {
      const collection = app.findCollectionByNameOrId(name);
      /** @type {core.NumberField} */ (collection.fields.getByName(field)).min = /** @type {any} */ (null);
      app.save(collection);
    }
  },
  (app) => {
    for (const [name, field] of [
      ["balances", "balance_cents"],
      ["transactions", "balance_after_cents"],
      ["affiliates", "pending_earnings_cents"],
    ]) {
      const collection = app.findCollectionByNameOrId(name);
      /** @type {core.NumberField} */ (collection.fields.getByName(field)).min = 0;
      app.save(collection);
    }
    const commissions = app.findCollectionByNameOrId("commissions");
    // Earnings as if nothing had been reversed: reductions given back, extra rows taken out.
    const undo = `SELECT COALESCE(SUM(CASE WHEN c.reference = '' THEN c.reversed_cents ELSE -c.amount_cents END), 0)
      FROM commissions c WHERE c.status IN ('pending', 'reversed')`;
    app
      .db()
      .newQuery(
        `UPDATE affiliates SET pending_earnings_cents = pending_earnings_cents + (${undo} AND c.affiliate_id = affiliates.id),
           total_earnings_cents = total_earnings_cents + (${undo} AND c.affiliate_id = affiliates.id)`,
      )
      .execute();
    app.db().newQuery(`UPDATE referrals SET commission_cents = commission_cents + (${undo} AND c.referral_id = referrals.id)`).execute();
    app.db().newQuery("DELETE FROM commissions WHERE reference != '' OR amount_cents < 1").execute();
    app.db().newQuery("UPDATE commissions SET status = 'pending' WHERE status = 'reversed'").execute();
    commissions.removeIndex("idx_commissions_payment");
    commissions.addIndex("idx_commissions_payment", true, "payment_id", "");
    commissions.fields.removeByName("reversed_cents");
    commissions.fields.removeByName("reference");
    const amount = /** @type {core.NumberField} */ (commissions.fields.getByName("amount_cents"));
    amount.min = 1;
    const cstatus = /** @type {core.SelectField} */ (commissions.fields.getByName("status"));
    cstatus.values = ["pending", "paid"];
    app.save(commissions);

    const payments = app.findCollectionByNameOrId("payments");
    app.db().newQuery("UPDATE payments SET status = 'paid' WHERE status IN ('partially_refunded', 'refunded', 'disputed')").execute();
    payments.removeIndex("idx_payments_provider_payment");
    payments.removeIndex("idx_payments_card_fingerprint");
    for (const name of ["card_fingerprint", "refunded_cents", "disputed_cents", "dispute_status", "reversed_at"]) {
      payments.fields.removeByName(name);
    }
    const status = /** @type {core.SelectField} */ (payments.fields.getByName("status"));
    status.values = ["pending", "paid", "failed"];
    app.save(payments);
  },
);
