// @ts-check
// The mail accounts send: the notice to a user's old address that an admin changed it.
// Built with the shop's one mail layout (lib/core/mail-templates.js) and sent after the
// transaction committed, once per action (never on an Idempotency-Key replay or a repeated
// webhook). Building or sending a mail never throws: a failure is logged, the action stands.

/** @type {typeof import("../core/mail-templates.js")} */
const templates = require(`${__hooks}/lib/core/mail-templates.js`);
/** @type {typeof import("../core/mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);

/**
 * The notice to a user's old address that an admin changed it.
 * @param {CoreApp} app
 * @param {string} oldEmail
 * @param {string} newEmail
 */
function emailChanged(app, oldEmail, newEmail) {
  return templates.deliver(app, "e-mail changed", () => ({
    to: oldEmail,
    subject: "Your e-mail address was changed",
    name: "",
    paragraphs: [
      `The e-mail address of your ${mail.siteName(app)} account was changed by our team from ${oldEmail} to ${newEmail}.`,
      "From now on you sign in with the new address, and our mails go there.",
      "If you did not ask for this change, contact us right away.",
    ],
    link: { url: `${mail.appUrl(app)}/contact`, label: "Contact us" },
  }));
}

module.exports = { emailChanged };
