// @ts-check
// The mails the money domain sends: the receipt of a credited payment (checkout, the test
// provider, Stripe's webhook).
// Built with the shop's one mail layout (lib/core/mail-templates.js) and sent after the
// transaction committed, once per action (never on an Idempotency-Key replay or a repeated
// webhook). Building or sending a mail never throws: a failure is logged, the action stands.

/** @type {typeof import("../core/mail-templates.js")} */
const templates = require(`${__hooks}/lib/core/mail-templates.js`);
/** @type {typeof import("../core/mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);
/** @type {typeof import("./ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);

const usd = ledger.formatUsd;

/**
 * The receipt of a credited payment: credits, bonus, amount paid, balance after.
 * @param {CoreApp} app
 * @param {string} paymentId
 */
function creditReceipt(app, paymentId) {
  return templates.deliver(app, "credit receipt", () => {
    const payment = app.findRecordById("payments", paymentId);
    if (payment.getString("status") !== "paid") return null;
    const user = app.findRecordById("users", payment.getString("user_id"));
    const credits = payment.getInt("credits_cents");
    const bonus = payment.getInt("bonus_cents");
    const last =
      (bonus > 0 ? ledger.entryByReference(app, user.id, `payment-bonus:${payment.id}`) : null) ??
      ledger.entryByReference(app, user.id, `payment:${payment.id}`);
    /** @type {[string, string][]} */
    const rows = [["Credits purchased", usd(credits)]];
    if (bonus > 0) rows.push(["Bonus credits", usd(bonus)]);
    rows.push(["Amount paid", usd(payment.getInt("amount_cents"))]);
    if (last) rows.push(["Balance after", usd(last.getInt("balance_after_cents"))]);
    return {
      to: user.email(),
      subject: `Receipt for ${usd(credits + bonus)} in credits`,
      name: user.getString("first_name"),
      paragraphs: [`Thank you for your purchase. ${usd(credits + bonus)} in credits were added to your balance.`],
      rows,
      link: { url: `${mail.appUrl(app)}/dashboard/transactions`, label: "See your transactions" },
    };
  });
}

module.exports = { creditReceipt };
