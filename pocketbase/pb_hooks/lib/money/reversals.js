// @ts-check
// Stripe refunds and chargebacks (charge.refunded, charge.dispute.*) reverse what a payment
// credited with DEBIT ledger rows that may leave a debt.
//
// What a payment credited (credits + bonus) is reversed in the share of the money taken
// back: refunds from the charge's cumulative amount_refunded, a dispute by its amount.
// Each step is one ledger row with a reference of its own, under "reversal:<payment id>:":
//   refund:<cumulative cents refunded>   DEBIT
//   dispute:<dispute id>                 DEBIT (dispute opened, or lost before we saw it open)
//   dispute-won:<dispute id>             CREDIT of what that dispute reversed
// so a replayed or late event finds its step done and moves nothing. The DEBIT rows may
// leave the balance below zero: a debt that blocks purchases until credits are bought.

/** @type {typeof import("./ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);

/** The statuses of a payment whose credits were booked. */
const CREDITED_STATUSES = ["paid", "partially_refunded", "refunded", "disputed"];

/**
 * Sum of the ledger rows whose reference starts with `prefix`, for one user.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {string} prefix  no LIKE wildcards in it (ids and fixed words)
 */
function ledgerSum(txApp, userId, prefix) {
  const row = new DynamicModel({ cents: 0 });
  txApp
    .db()
    .newQuery("SELECT COALESCE(SUM(amount_cents), 0) AS cents FROM transactions WHERE user_id = {:userId} AND reference LIKE {:pattern}")
    .bind({ userId, pattern: `${prefix}%` })
    .one(row);
  return row.cents;
}

/**
 * The money of a payment taken back now: refunds plus an open or lost dispute, at most
 * what was paid.
 * @param {core.Record} payment
 */
function moneyTakenBack(payment) {
  const disputeStatus = payment.getString("dispute_status");
  const disputed = disputeStatus === "open" || disputeStatus === "lost" ? payment.getInt("disputed_cents") : 0;
  return Math.min(payment.getInt("amount_cents"), payment.getInt("refunded_cents") + disputed);
}

/**
 * The status that says what happened to a credited payment.
 * @param {core.Record} payment
 */
function reversalStatus(payment) {
  const disputeStatus = payment.getString("dispute_status");
  if (disputeStatus === "open" || disputeStatus === "lost") return "disputed";
  const refunded = payment.getInt("refunded_cents");
  if (refunded >= payment.getInt("amount_cents")) return "refunded";
  return refunded > 0 ? "partially_refunded" : "paid";
}

/**
 * Books one reversal step (a DEBIT of at most what is left to reverse), once per reference.
 * Returns the cents reversed (0 when the step was done before or nothing is left).
 * @param {CoreApp} txApp
 * @param {core.Record} payment
 * @param {{ reference: string, targetCents: number, description: string }} step
 *   targetCents: the credits this step should take back before the cap
 */
function debitStep(txApp, payment, step) {
  const userId = payment.getString("user_id");
  if (ledger.hasReference(txApp, userId, step.reference)) return 0;
  const credited = payment.getInt("credits_cents") + payment.getInt("bonus_cents");
  const reversedSoFar = -ledgerSum(txApp, userId, `reversal:${payment.id}:`);
  const cents = Math.min(step.targetCents, credited - reversedSoFar);
  if (cents < 1) return 0;
  ledger.applyLedgerEntry(
    txApp,
    {
      userId,
      type: "DEBIT",
      amountCents: -cents,
      description: `${step.description} (payment ${payment.id.slice(0, 8).toUpperCase()}): ${ledger.formatUsd(cents)} in credits reversed`,
      // No stripePaymentIntentId: that column is unique, held by the payment's CREDIT row.
      reference: step.reference,
    },
    undefined,
    { allowDebt: true },
  );
  return cents;
}

/**
 * The credits that `moneyCents` of the payment bought (credits + bonus in the same share).
 * @param {core.Record} payment
 * @param {number} moneyCents
 */
function creditsShare(payment, moneyCents) {
  const credited = payment.getInt("credits_cents") + payment.getInt("bonus_cents");
  const amount = payment.getInt("amount_cents");
  return Math.min(credited, Math.round((credited * Math.min(moneyCents, amount)) / amount));
}

/**
 * Acts on one charge.refunded / charge.dispute.* event for the payment with this payment
 * intent, in one transaction: payment fields, ledger step, commission. Idempotent.
 * @param {CoreApp} app
 * @param {string} type
 * @param {any} object  the charge or the dispute
 * @returns {string} the outcome
 */
function reversePayment(app, type, object) {
  const paymentIntent = String(object?.payment_intent || "");
  if (!paymentIntent) return "unknown_payment";
  /** @type {core.Record} */
  let found;
  try {
    found = app.findFirstRecordByFilter("payments", "provider = 'stripe' && provider_payment_id = {:pi}", { pi: paymentIntent });
  } catch (_) {
    app.logger().warn("Stripe charge event for an unknown payment", "payment_intent", paymentIntent, "type", type);
    return "unknown_payment";
  }
  let outcome = "ignored";
  app.runInTransaction((txApp) => {
    const payment = txApp.findRecordById("payments", found.id);
    if (!CREDITED_STATUSES.includes(payment.getString("status"))) {
      outcome = "not_paid";
      return;
    }
    const fingerprint = String(object?.payment_method_details?.card?.fingerprint || "");
    if (fingerprint && !payment.getString("card_fingerprint")) payment.set("card_fingerprint", fingerprint.slice(0, 255));
    const amount = payment.getInt("amount_cents");
    let reversed = 0;
    let restored = 0;
    let step = type;

    if (type === "charge.refunded") {
      const refundedNow = Math.min(amount, Math.max(0, Math.floor(Number(object.amount_refunded) || 0)));
      if (refundedNow > payment.getInt("refunded_cents")) payment.set("refunded_cents", refundedNow);
      const refundedTotal = payment.getInt("refunded_cents");
      step = `refund:${refundedTotal}`;
      const alreadyByRefunds = -ledgerSum(txApp, payment.getString("user_id"), `reversal:${payment.id}:refund:`);
      reversed = debitStep(txApp, payment, {
        reference: `reversal:${payment.id}:refund:${refundedTotal}`,
        targetCents: creditsShare(payment, refundedTotal) - alreadyByRefunds,
        description: refundedTotal >= amount ? "Payment refunded by Stripe" : "Payment partly refunded by Stripe",
      });
      outcome = reversed > 0 ? "reversed" : "already_reversed";
    } else {
      const disputeId = String(object?.id || "");
      const disputed = Math.min(amount, Math.max(0, Math.floor(Number(object?.amount) || 0)));
      const status = String(object?.status || "");
      const current = payment.getString("dispute_status");
      const disputeReference = `reversal:${payment.id}:dispute:${disputeId}`;
      step = `dispute:${disputeId}`;
      const takeBack = () =>
        debitStep(txApp, payment, {
          reference: disputeReference,
          targetCents: creditsShare(payment, disputed),
          description: "Payment disputed (chargeback)",
        });
      if (type === "charge.dispute.created") {
        if (current === "won" || current === "lost") {
          outcome = "already_closed"; // closed arrived first; it decided
        } else if (status.startsWith("warning_")) {
          outcome = "inquiry"; // an inquiry takes no money
        } else {
          payment.set("dispute_status", "open");
          payment.set("disputed_cents", disputed);
          reversed = takeBack();
          outcome = reversed > 0 ? "reversed" : "already_reversed";
        }
      } else if (type === "charge.dispute.closed" && status === "lost") {
        if (current !== "lost") {
          payment.set("dispute_status", "lost");
          payment.set("disputed_cents", disputed);
        }
        reversed = takeBack(); // nothing when the dispute's opening already did it
        outcome = current === "lost" ? "already_closed" : "lost";
      } else if (type === "charge.dispute.closed" && (status === "won" || status === "warning_closed")) {
        if (current === "won") {
          outcome = "already_closed";
        } else {
          payment.set("dispute_status", "won");
          const userId = payment.getString("user_id");
          const wonReference = `reversal:${payment.id}:dispute-won:${disputeId}`;
          step = `dispute-won:${disputeId}`;
          const took = -ledgerSum(txApp, userId, disputeReference);
          if (took > 0 && !ledger.hasReference(txApp, userId, wonReference)) {
            ledger.applyLedgerEntry(txApp, {
              userId,
              type: "CREDIT",
              amountCents: took,
              description: `Dispute won (payment ${payment.id.slice(0, 8).toUpperCase()}): ${ledger.formatUsd(took)} in credits restored`,
              reference: wonReference,
            });
            restored = took;
          }
          outcome = "won";
        }
      } else {
        outcome = "ignored";
      }
    }

    payment.set("status", reversalStatus(payment));
    if (reversed > 0 && !payment.getString("reversed_at")) payment.set("reversed_at", new DateTime());
    txApp.save(payment);
    /** @type {typeof import("../affiliate/affiliate.js")} */
    const affiliate = require(`${__hooks}/lib/affiliate/affiliate.js`);
    affiliate.reverseCommission(txApp, payment, moneyTakenBack(payment), step);
    if (restored > 0) outcome = "restored";
  });
  return outcome;
}

module.exports = { reversePayment };
