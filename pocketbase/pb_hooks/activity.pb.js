// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The customer's own activity log (issue #18): GET /api/v1/activity (route docs on
// lib/activity/activity.js listActivity) and the account events it records here: sign-ins,
// password changes (settings form, reset link) and confirmed e-mail changes. Other routes
// (purchases, renewals, rotations, API keys, webhooks, the IP allowlist) record their own
// rows with lib/activity/activity.js record() inside their transactions.
//
// This file sorts after accounts.pb.js: its users hooks run inside those (the suspension
// check, the demo guard, the password rules), so a refused request never reaches them, and
// each records only after e.next() has succeeded.

// The routes: lib/api/routes.js (activity).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).activity, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).activity),
);

onRecordAuthRequest((e) => require(`${__hooks}/lib/activity/activity.js`).onSignIn(e), "users");
onRecordUpdateRequest((e) => require(`${__hooks}/lib/activity/activity.js`).onUserUpdate(e), "users");
onRecordConfirmPasswordResetRequest((e) => require(`${__hooks}/lib/activity/activity.js`).onPasswordReset(e), "users");
onRecordConfirmEmailChangeRequest((e) => require(`${__hooks}/lib/activity/activity.js`).onEmailChangeConfirmed(e), "users");
