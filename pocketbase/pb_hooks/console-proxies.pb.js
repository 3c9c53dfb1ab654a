// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The console's Proxy Management (spec "Proxy Management"; the admin procedures
// get_admin_proxies, generate_proxies_admin, update_proxy_admin, delete_proxy_admin and the
// bulk import). Shop admins only: anonymous 401, customers 403; changes are refused in demo
// mode and each writes exactly one audit row in its own transaction (lib/audit/admin.js). The
// work is in lib/proxies/console-proxies.js. Errors: {status, message, data: {field: {code, message}}}.
//
// GET    /api/admin/proxies?search=&type=&country=&status=&page=&perPage=(1-100, default 20)
//        -> {items: [{id, host, port, username, type, country, state, city, status,
//           assigned_to_user_id, owner_email, expires_at, auto_renew, created, updated}],
//           page, perPage, totalItems, totalPages}; newest first; no passwords. search
//           matches host, username, city, state and the owner's e-mail (substring).
// GET    /api/admin/proxies/stats
//        -> {total, available, assigned, expired, maintenance, by_type: {TYPE: n},
//           by_country: {code: n}}
// GET    /api/admin/proxies/locations -> the reference list {CODE: {name, states: {state: [cities]}}}
// GET    /api/admin/proxies/{id} -> a list item plus its plaintext `password` (404 when missing)
// PATCH  /api/admin/proxies/{id}  {host?, port? 1-65535, username?, password?, status?}
//        -> the proxy as GET answers it. Status: Assigned only by a purchase or renewal (an
//        owned proxy in its term keeps it); Available on a customer's proxy releases it
//        (owner, expiry and auto-renew cleared, a new password unless one is given);
//        Expired only for a customer's proxy (its term ends now); Maintenance only without
//        a customer. (host, port, username) stays unique (400 on host, port and username).
//        Audit proxies.update {changes: {field: {from, to}}, password: {changed: true}}.
// DELETE /api/admin/proxies/{id} -> 204; audit proxies.delete {host, port, username, type,
//        country, status, owner: {id, email} | null}.
// POST   /api/admin/proxies/generate  {type, country, state?, city?, quantity 1-1000}
//        -> {generated_count, message: "Successfully generated N proxies", ids}; AVAILABLE,
//        random credentials; place checked against lib/locations.json; one transaction;
//        audit proxies.generate {count, type, country, state, city}.
// POST   /api/admin/proxies/import  {text, type? (DATACENTER), country? ("Unknown"), state?, city?}
//        -> {imported, skipped: [{line, text, reason}], message: "Successfully imported N proxies"};
//        up to 10,000 host:port:username:password lines in one transaction. Skipped: malformed
//        (not 4 non-empty parts, bad host/username/password), bad port, duplicate in the file,
//        already in stock. No valid line: 400 "No valid proxies found in import data" with
//        data.skipped; over 10,000 lines: 400 on text. Audit proxies.import {imported,
//        skipped, type, country, state, city}.

routerAdd(
  "GET",
  "/api/admin/proxies",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/proxies/console-proxies.js")} */
    const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
    admin.requireAdmin(e);
    return e.json(200, inventory.list(e.app, inventory.listFilters(e), admin.paging(e, 100)));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/admin/proxies/stats",
  (e) => {
    require(`${__hooks}/lib/audit/admin.js`).requireAdmin(e);
    /** @type {typeof import("./lib/proxies/console-proxies.js")} */
    const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
    return e.json(200, inventory.stats(e.app));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/admin/proxies/locations",
  (e) => {
    require(`${__hooks}/lib/audit/admin.js`).requireAdmin(e);
    return e.json(200, require(`${__hooks}/lib/proxies/console-proxies.js`).locations());
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/admin/proxies/{id}",
  (e) => {
    require(`${__hooks}/lib/audit/admin.js`).requireAdmin(e);
    /** @type {typeof import("./lib/proxies/console-proxies.js")} */
    const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
    return e.json(200, inventory.detail(e.app, e.request?.pathValue("id") ?? ""));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "PATCH",
  "/api/admin/proxies/{id}",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/console-proxies.js")} */
    const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
    admin.requireAdminWrite(e);
    const id = e.request?.pathValue("id") ?? "";
    const edit = inventory.validateEdit(api.jsonBody(e));
    admin.auditedChange(e, (txApp) => {
      const { changes } = inventory.applyEdit(txApp, id, edit);
      return { result: null, audit: { action: "proxies.update", targetType: "proxies", targetId: id, details: { changes } } };
    });
    return e.json(200, inventory.detail(e.app, id));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "DELETE",
  "/api/admin/proxies/{id}",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/proxies/console-proxies.js")} */
    const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
    admin.requireAdminWrite(e);
    const id = e.request?.pathValue("id") ?? "";
    admin.auditedChange(e, (txApp) => ({
      result: null,
      audit: { action: "proxies.delete", targetType: "proxies", targetId: id, details: inventory.remove(txApp, id) },
    }));
    return e.noContent(204);
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "POST",
  "/api/admin/proxies/generate",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/console-proxies.js")} */
    const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
    admin.requireAdminWrite(e);
    const input = inventory.validateGenerate(api.jsonBody(e));
    const ids = admin.auditedChange(e, (txApp) => {
      const made = inventory.generate(txApp, input);
      return {
        result: made,
        audit: {
          action: "proxies.generate",
          targetType: "proxies",
          targetId: "",
          details: { count: made.length, type: input.type, country: input.country, state: input.state, city: input.city },
        },
      };
    });
    return e.json(200, {
      generated_count: ids.length,
      message: `Successfully generated ${ids.length} proxies`,
      ids,
    });
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "POST",
  "/api/admin/proxies/import",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/console-proxies.js")} */
    const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
    admin.requireAdminWrite(e);
    const parsed = inventory.parseImport(api.jsonBody(e));
    const noneValid = () => {
      const message = "No valid proxies found in import data";
      return e.json(400, {
        status: 400,
        message,
        data: { text: { code: "no_valid_proxies", message }, skipped: parsed.skipped },
      });
    };
    if (parsed.valid.length === 0) return noneValid();
    /** @type {number} */
    let imported = 0;
    try {
      imported = admin.auditedChange(e, (txApp) => {
        const n = inventory.insertImport(txApp, parsed);
        // Every line was already in stock: nothing to keep, nothing to log.
        if (n === 0) throw new Error("nothing imported");
        return {
          result: n,
          audit: {
            action: "proxies.import",
            targetType: "proxies",
            targetId: "",
            details: { imported: n, skipped: parsed.skipped.length, ...parsed.batch },
          },
        };
      });
    } catch (err) {
      if (String(err).indexOf("nothing imported") >= 0) return noneValid();
      throw err;
    }
    return e.json(200, { imported, skipped: parsed.skipped, message: `Successfully imported ${imported} proxies` });
  },
  $apis.requireAuth("users"),
);
