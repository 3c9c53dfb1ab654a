// @ts-check
// users.welcome_credit_withheld (issue #28): the account verified its e-mail but got no
// welcome credit, because its sign-up address had already had the day's number of them
// (welcome_credits_per_address_per_day, lib/money/welcome-credit.js). The dashboard reads it
// to say why the promised credit did not come and what to do. Only the server writes it:
// the users update rule refuses a change, and the update hook keeps the stored value
// (lib/accounts/user-rights.js).

const LOCKED = "@request.body.welcome_credit_withheld:changed = false";

/**
 * The users update rule with the lock added (`on`) or taken out; an empty rule stays empty.
 * @param {string | undefined} rule
 * @param {boolean} on
 */
function withLock(rule, on) {
  if (!rule) return rule;
  const parts = rule.split(" && ").filter((part) => part !== LOCKED);
  return (on ? [...parts, LOCKED] : parts).join(" && ");
}

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    users.fields.add(new BoolField({ name: "welcome_credit_withheld" }));
    users.updateRule = withLock(users.updateRule, true);
    app.save(users);
  },
  (app) => {
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    users.updateRule = withLock(users.updateRule, false);
    users.fields.removeByName("welcome_credit_withheld");
    app.save(users);
  },
);
