// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The console's System Settings, admin invitations and the invitees' registration.
// Helpers: lib/settings/console-settings.js, lib/accounts/invitations.js. Every admin route needs a signed-in
// shop admin (401 anonymous, 403 otherwise); changes are refused in demo mode (403) and
// each writes exactly one audit row in its transaction. Errors are
// {status, message, data: {field: {code, message}}}.
//
// GET  /api/admin/settings -> the settings (below), stored values or the defaults.
// PUT  /api/admin/settings  {site_name, site_description, primary_color (#RGB/#RRGGBB),
//        logo_url?, contact_email, contact_phone, contact_address?, default_support_name,
//        admin_registration_enabled: bool, demo_mode: bool, welcome_credit_cents?: 0-10000,
//        welcome_credit_spendable_cents?: 0-10000 (how much of the welcome credit buys
//        proxies before a first Stripe payment), welcome_credits_per_address_per_day?: 0-1000
//        (0 = no limit)}
//      -> the settings {site_name, ..., admin_registration_enabled: bool, demo_mode: bool,
//         welcome_credit_cents: int, welcome_credit_spendable_cents: int,
//         welcome_credits_per_address_per_day: int}. Keys left out (optional ones) keep their value; unknown
//         keys are refused (400). Changed keys are saved as records (so the public pages
//         reload) with ONE audit row "settings.update" {changes: {key: {from, to}}} (values
//         as stored: text, "true"/"false"); nothing changed = nothing written.
//      Demo mode: while demo_mode is "true" this route (and every console write) is
//      refused, so no console user can switch it off. The off-switch is the superuser's:
//      the settings row demo_mode in the PocketBase dashboard (/_/), or SHOP_DEMO_MODE=
//      true|false, which pins the value on every start.
//
// POST   /api/admin/invitations  {email?} -> {id, url, email, expires_at}; url =
//        <meta.appURL>/console/register?token=<43 random chars> (only its SHA-256 is
//        stored; the token is never shown again). 409 while admin_registration_enabled is
//        not "true" or 20 links are pending; 400 for an e-mail that has an account.
//        Audit "invitations.create" {email, expires_at}.
// GET    /api/admin/invitations?page=&perPage= -> {items: [{id, email, expires_at, created,
//        created_by: {id, email, first_name, last_name} | null}], page, perPage, totalItems,
//        totalPages}: the pending links (unused, unrevoked, unexpired), newest first.
// DELETE /api/admin/invitations/{id} -> {id, revoked_at}; 404 unknown, 409 used, revoked or
//        expired. Audit "invitations.revoke" {email, expires_at, created_by}.
//
// Public (no sign-in; rate limited per IP, lib/settings/rate-limits.js):
// POST /api/shop/admin-invitations/check {token} -> {valid: true, email: string | null,
//      expires_at}; 403 registration closed or demo mode, 404 unknown token, 410 used,
//      revoked or expired (each with its message). The token travels in the body, never in
//      the URL, which PocketBase's request log keeps (security review #13, finding 9); the
//      old query form (GET ...?token=) answers 405 and checks nothing.
// POST /api/shop/admin-register {token, first_name, last_name, email, password}
//      -> {token, record} (signed in, like /api/shop/signup): a verified admin account,
//      onboarded, with the password checked by the shop's strength rules. The invitation
//      is claimed by a conditional UPDATE in the same transaction (single use under
//      concurrency) and the audit row "invitations.accept" is written with the new admin
//      as admin_id. Refusals: 403 closed/demo, 404/410 as above, 400 fields (e-mail not
//      the invited one, e-mail taken, weak password).

// SHOP_DEMO_MODE, when set, pins demo_mode on every start (lib/settings/console-settings.js).
onBootstrap((e) => {
  e.next();
  /** @type {typeof import("./lib/settings/console-settings.js")} */
  const settings = require(`${__hooks}/lib/settings/console-settings.js`);
  settings.applyDemoModeEnv(e.app);
});

routerAdd(
  "GET",
  "/api/admin/settings",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/settings/console-settings.js")} */
    const settings = require(`${__hooks}/lib/settings/console-settings.js`);
    admin.requireAdmin(e);
    return e.json(200, settings.readSettings(e.app));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "PUT",
  "/api/admin/settings",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/settings/console-settings.js")} */
    const settings = require(`${__hooks}/lib/settings/console-settings.js`);
    admin.requireAdminWrite(e);
    const values = settings.validateSettings(api.jsonBody(e));
    e.app.runInTransaction((txApp) => {
      const changes = settings.saveSettings(txApp, values);
      if (Object.keys(changes).length === 0) return;
      /** @type {typeof import("./lib/audit/audit.js")} */
      const audit = require(`${__hooks}/lib/audit/audit.js`);
      audit.writeAuditLog(txApp, {
        adminId: e.auth?.id ?? "",
        action: "settings.update",
        targetType: "settings",
        targetId: "",
        details: { changes },
      });
    });
    return e.json(200, settings.readSettings(e.app));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "POST",
  "/api/admin/invitations",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/accounts/invitations.js")} */
    const invitations = require(`${__hooks}/lib/accounts/invitations.js`);
    const me = admin.requireAdminWrite(e);
    if (!invitations.registrationEnabled(e.app)) throw new ApiError(409, invitations.MESSAGES.disabled, {});
    const { email } = invitations.validateCreate(e.app, api.jsonBody(e));
    const made = admin.auditedChange(e, (txApp) => {
      const { record, token } = invitations.createInvitation(txApp, { adminId: me.id, email });
      const expiresAt = record.getDateTime("expires_at").string();
      return {
        result: { id: record.id, url: invitations.registerUrl(txApp, token), email: email || null, expires_at: expiresAt },
        audit: {
          action: "invitations.create",
          targetType: "admin_invitations",
          targetId: record.id,
          details: { email: email || null, expires_at: expiresAt },
        },
      };
    });
    return e.json(200, made);
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/admin/invitations",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/accounts/invitations.js")} */
    const invitations = require(`${__hooks}/lib/accounts/invitations.js`);
    admin.requireAdmin(e);
    return e.json(200, invitations.listPending(e.app, admin.paging(e, 100)));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "DELETE",
  "/api/admin/invitations/{id}",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/accounts/invitations.js")} */
    const invitations = require(`${__hooks}/lib/accounts/invitations.js`);
    admin.requireAdminWrite(e);
    const id = e.request?.pathValue("id") ?? "";
    const revoked = admin.auditedChange(e, (txApp) => {
      const invitation = invitations.revokeInvitation(txApp, id);
      return {
        result: { id: invitation.id, revoked_at: invitation.getDateTime("revoked_at").string() },
        audit: {
          action: "invitations.revoke",
          targetType: "admin_invitations",
          targetId: invitation.id,
          details: {
            email: invitation.getString("email") || null,
            expires_at: invitation.getDateTime("expires_at").string(),
            created_by: invitation.getString("created_by"),
          },
        },
      };
    });
    return e.json(200, revoked);
  },
  $apis.requireAuth("users"),
);

routerAdd("GET", "/api/shop/admin-invitations/check", () => {
  throw new ApiError(405, require(`${__hooks}/lib/accounts/invitations.js`).MESSAGES.checkByPost);
});

routerAdd("POST", "/api/shop/admin-invitations/check", (e) => {
  /** @type {typeof import("./lib/audit/admin.js")} */
  const admin = require(`${__hooks}/lib/audit/admin.js`);
  /** @type {typeof import("./lib/core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("./lib/accounts/invitations.js")} */
  const invitations = require(`${__hooks}/lib/accounts/invitations.js`);
  admin.refuseInDemoMode(e.app);
  if (!invitations.registrationEnabled(e.app)) throw new ForbiddenError(invitations.MESSAGES.closed);
  const token = api.jsonBody(e)["token"];
  const invitation = invitations.usableInvitation(e.app, typeof token === "string" ? token.trim() : "");
  return e.json(200, {
    valid: true,
    email: invitation.getString("email") || null,
    expires_at: invitation.getDateTime("expires_at").string(),
  });
});

routerAdd("POST", "/api/shop/admin-register", (e) => {
  /** @type {typeof import("./lib/audit/admin.js")} */
  const admin = require(`${__hooks}/lib/audit/admin.js`);
  /** @type {typeof import("./lib/core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("./lib/accounts/invitations.js")} */
  const invitations = require(`${__hooks}/lib/accounts/invitations.js`);
  admin.refuseInDemoMode(e.app);
  if (!invitations.registrationEnabled(e.app)) throw new ForbiddenError(invitations.MESSAGES.closed);
  const body = api.jsonBody(e);
  const invitation = invitations.usableInvitation(e.app, api.text(body["token"]));
  const input = invitations.validateRegister(body);
  const user = invitations.acceptInvitation(e.app, invitation, input);
  return $apis.recordAuthResponse(e, user, "password", null);
});
