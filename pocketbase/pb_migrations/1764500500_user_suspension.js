// @ts-check
// The admin's user tools (issue #15): users.suspended (an admin suspended the account: its
// sessions ended and sign-in is refused, pb_hooks/lib/accounts/user-suspension.js) and
// users.deleted (the account was deleted on request: personal data erased, the row kept
// for the ledger and orders, pb_hooks/lib/accounts/user-deletion.js). Only the server
// writes them: the users update rule refuses a change of either, and the update hook keeps
// their stored values (lib/accounts/user-rights.js).

const LOCKED_FIELDS = ["@request.body.suspended:changed = false", "@request.body.deleted:changed = false"];

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    users.fields.add(new BoolField({ name: "suspended" }));
    users.fields.add(new BoolField({ name: "deleted" }));
    if (users.updateRule) users.updateRule = [users.updateRule, ...LOCKED_FIELDS].join(" && ");
    app.save(users);
  },
  (app) => {
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    if (users.updateRule) {
      users.updateRule = users.updateRule
        .split(" && ")
        .filter((part) => LOCKED_FIELDS.indexOf(part) < 0)
        .join(" && ");
    }
    users.fields.removeByName("suspended");
    users.fields.removeByName("deleted");
    app.save(users);
  },
);
