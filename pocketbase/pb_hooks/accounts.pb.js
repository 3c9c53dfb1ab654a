// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Accounts: sign-up, the users collection's hooks, the demo accounts, admin invitations and
// the invitees' registration. Route docs are on the functions in lib/accounts/.
//
// /api/shop/ holds the public account routes (sign-up, the invitation check, admin
// registration): neither the customer API (/api/v1/, signed in) nor the console
// (/api/admin/, shop admins).

// The routes: lib/api/routes.js (accounts).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).accounts, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).accounts),
);

// The demo accounts (users.is_demo, set by the demo seed) have published passwords. While
// demo mode is on, nobody but a superuser changes their user row (names, country, e-mail,
// password, onboarding ...) and nobody resets their password or changes their e-mail:
// 403 with the demo message (lib/core/demo-mode.js). Their spending routes refuse them
// through lib/core/api.js actingCustomer. Registered before the users hooks below, which
// they ran before when they had a file of their own.
onRecordUpdateRequest((e) => require(`${__hooks}/lib/core/demo-mode.js`).guardDemoAccount(e, e.record?.original(), true), "users");
onRecordConfirmPasswordResetRequest((e) => require(`${__hooks}/lib/core/demo-mode.js`).guardDemoAccount(e, e.record), "users");
onRecordRequestEmailChangeRequest((e) => require(`${__hooks}/lib/core/demo-mode.js`).guardDemoAccount(e, e.record, true), "users");
onRecordConfirmEmailChangeRequest((e) => require(`${__hooks}/lib/core/demo-mode.js`).guardDemoAccount(e, e.record), "users");

// New users (sign-up route, dashboard, seed) get their balance and affiliate rows in the
// transaction that creates them.
onRecordCreate((e) => require(`${__hooks}/lib/accounts/new-user.js`).createUser(e), "users");

// A user can never raise their own rights nor change their e-mail through the API;
// passwords a person chooses must be strong and mark password_set.
onRecordUpdateRequest((e) => require(`${__hooks}/lib/accounts/user-rights.js`).keepPrivilegedFields(e), "users");
onRecordConfirmPasswordResetRequest((e) => require(`${__hooks}/lib/accounts/passwords.js`).confirmPasswordReset(e), "users");
onRecordRequestEmailChangeRequest((e) => require(`${__hooks}/lib/accounts/user-rights.js`).refuseEmailChange(e), "users");

// A suspended account (users.suspended) cannot sign in by any method nor refresh a token,
// nor be signed in (or verified) by an e-mailed code or a verification link. Registered
// before the sign-up hooks below, which may answer without passing the request on.
onRecordAuthRequest((e) => require(`${__hooks}/lib/accounts/user-suspension.js`).refuseSuspended(e), "users");
onRecordAuthWithOTPRequest((e) => require(`${__hooks}/lib/accounts/user-suspension.js`).refuseSuspended(e), "users");
onRecordConfirmVerificationRequest((e) => require(`${__hooks}/lib/accounts/user-suspension.js`).refuseSuspended(e), "users");

// Verifying an account made by sign-up without its session (security review #13, finding 3).
onRecordConfirmVerificationRequest((e) => require(`${__hooks}/lib/accounts/signup.js`).confirmVerification(e), "users");
onRecordAuthWithOTPRequest((e) => require(`${__hooks}/lib/accounts/signup.js`).authWithOTP(e), "users");

// Referral counts and the welcome credit follow e-mail verification.
onRecordUpdate((e) => require(`${__hooks}/lib/accounts/user-rights.js`).verifiedChanged(e), "users");
