// @ts-check
// Accounts (issue #3): password_set on users, e-mail one-time codes, mail templates that
// link to the web app (not PocketBase's /_/ UI), 7-day sessions.
// SMTP, sender and SHOP_AUTH_RATE_LIMIT come from the environment on every start
// (pb_hooks/accounts.pb.js, onBootstrap) and once more at the end of this migration.

migrate(
  (app) => {
    const OTP_TEMPLATE = {
      subject: "Your {APP_NAME} sign-in code",
      body: `<p>Hello,</p>
    <p>Your {APP_NAME} sign-in code is: <strong>{OTP}</strong></p>
    <p>It is valid for 10 minutes. Enter it on the sign-in page: <a href="{APP_URL}/login">{APP_URL}/login</a></p>
    <p><i>If you didn't ask for a sign-in code, you can ignore this email.</i></p>
    <p>Thanks,<br/>{APP_NAME} team</p>`,
    };

    const RESET_TEMPLATE = {
      subject: "Set your {APP_NAME} password",
      body: `<p>Hello,</p>
    <p>Click the link below to set a new password for your {APP_NAME} account.</p>
    <p><a class="btn" href="{APP_URL}/reset-password?token={TOKEN}" target="_blank" rel="noopener">Set password</a></p>
    <p>The link is valid for 30 minutes.</p>
    <p><i>If you didn't ask for this, please ignore this email.</i></p>
    <p>Thanks,<br/>{APP_NAME} team</p>`,
    };

    const VERIFICATION_TEMPLATE = {
      subject: "Verify your {APP_NAME} email",
      body: `<p>Hello,</p>
    <p>Thank you for joining {APP_NAME}.</p>
    <p>Click the link below to verify your email address.</p>
    <p><a class="btn" href="{APP_URL}/login?verify={TOKEN}" target="_blank" rel="noopener">Verify</a></p>
    <p><i>If you didn't recently register, please ignore this email.</i></p>
    <p>Thanks,<br/>{APP_NAME} team</p>`,
    };

    const users = app.findCollectionByNameOrId("users");
    if (!users.fields.getByName("password_set")) {
      users.fields.add(new BoolField({ name: "password_set" }));
    }
    users.passwordAuth.enabled = true;
    users.passwordAuth.identityFields = ["email"];
    users.otp.enabled = true;
    users.otp.duration = 600;
    users.otp.length = 6;
    users.otp.emailTemplate.subject = OTP_TEMPLATE.subject;
    users.otp.emailTemplate.body = OTP_TEMPLATE.body;
    users.resetPasswordTemplate.subject = RESET_TEMPLATE.subject;
    users.resetPasswordTemplate.body = RESET_TEMPLATE.body;
    users.verificationTemplate.subject = VERIFICATION_TEMPLATE.subject;
    users.verificationTemplate.body = VERIFICATION_TEMPLATE.body;
    users.authToken.duration = 7 * 24 * 3600;
    app.save(users);
    // Accounts that exist already (demo seed) were given their passwords by someone.
    app.db().newQuery("UPDATE users SET password_set = TRUE").execute();
    // On a fresh data dir the migrations run after onBootstrap, and an earlier one writes
    // the rate limits: apply the environment's mail settings and limits again here.
    require(`${__hooks}/lib/settings/env-settings.js`).applyEnvSettings(app);
  },
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.removeByName("password_set");
    users.otp.enabled = false;
    users.authToken.duration = 432000;
    app.save(users);
  },
);
