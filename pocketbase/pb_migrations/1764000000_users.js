// @ts-check
// The built-in users collection becomes the shop's customers and admins: profile fields,
// e-mail as the only identity, no public sign-up (POST /api/shop/signup creates users),
// and only the profile fields a user may change themselves left writable.

const OWN_OR_ADMIN = '@request.auth.id != "" && (id = @request.auth.id || @request.auth.is_admin = true)';
const OWN_PROFILE_UPDATE = [
  '@request.auth.id != ""',
  "id = @request.auth.id",
  "@request.body.is_admin:changed = false",
  "@request.body.email:changed = false",
  "@request.body.verified:changed = false",
  "@request.body.emailVisibility:changed = false",
].join(" && ");
// Admins see other users' e-mail addresses (PocketBase shows them only to the owner and
// to "managers"). The update rule still limits every caller to their own record, and an
// admin's own password change still needs the old password, hence the id condition.
const ADMIN_MANAGES_OTHERS = "@request.auth.is_admin = true && id != @request.auth.id";

/** A rule of null: superusers and server code only. */
const LOCKED = /** @type {string} */ (/** @type {unknown} */ (null));

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    users.fields.removeByName("name");
    users.fields.removeByName("avatar");
    users.fields.add(new TextField({ name: "first_name", min: 2, max: 100 }));
    users.fields.add(new TextField({ name: "last_name", min: 2, max: 100 }));
    users.fields.add(new TextField({ name: "country", max: 100 }));
    users.fields.add(new BoolField({ name: "is_admin" }));
    users.fields.add(new BoolField({ name: "onboarding_completed" }));
    users.fields.add(new DateField({ name: "onboarding_completed_at" }));

    users.listRule = OWN_OR_ADMIN;
    users.viewRule = OWN_OR_ADMIN;
    users.createRule = LOCKED;
    users.updateRule = OWN_PROFILE_UPDATE;
    users.deleteRule = LOCKED;
    users.manageRule = ADMIN_MANAGES_OTHERS;
    users.passwordAuth.enabled = true;
    users.passwordAuth.identityFields = ["email"];
    users.addIndex("idx_users_is_admin", false, "is_admin", "");
    app.save(users);
  },
  (app) => {
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    for (const name of ["first_name", "last_name", "country", "is_admin", "onboarding_completed", "onboarding_completed_at"]) {
      users.fields.removeByName(name);
    }
    users.fields.add(new TextField({ name: "name", max: 255 }));
    users.fields.add(
      new FileField({ name: "avatar", maxSelect: 1, mimeTypes: ["image/jpeg", "image/png", "image/svg+xml", "image/gif", "image/webp"] }),
    );
    users.removeIndex("idx_users_is_admin");
    const own = "id = @request.auth.id";
    users.listRule = own;
    users.viewRule = own;
    users.createRule = "";
    users.updateRule = own;
    users.deleteRule = own;
    users.manageRule = LOCKED;
    app.save(users);
  },
);
