// @ts-check
// Proxy Management's edit and delete (the spec's update_proxy_admin, delete_proxy_admin):
// the endpoint and status rules, and one audit row per change in its own transaction
// (lib/audit/admin.js). Refused in demo mode.

/** @type {typeof import("../audit/admin.js")} */
const admin = require(`${__hooks}/lib/audit/admin.js`);
/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
/** @type {typeof import("./endpoints.js")} */
const endpoints = require(`${__hooks}/lib/proxies/endpoints.js`);
/** @type {typeof import("./inventory.js")} */
const inventory = require(`${__hooks}/lib/proxies/inventory.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/**
 * @typedef {object} ProxyEdit  the fields the request sets (others stay)
 * @property {string} [host]
 * @property {number} [port]
 * @property {string} [username]
 * @property {string} [password]
 * @property {string} [status]
 */

/**
 * Checks an edit body {host?, port?, username?, password?, status?}; every broken rule in one 400.
 * @param {Record<string, unknown>} body
 * @returns {ProxyEdit}
 */
function validateEdit(body) {
  /** @type {ProxyEdit} */
  const edit = {};
  /** @type {[string, string, string][]} */
  const problems = [];
  if (body["host"] !== undefined) {
    edit.host = endpoints.normalizeHost(api.text(body["host"]));
    const p = endpoints.hostProblem(edit.host);
    if (p) problems.push(["host", "validation_invalid_host", p]);
  }
  if (body["port"] !== undefined) {
    edit.port = endpoints.portOf(body["port"]);
    if (Number.isNaN(edit.port)) problems.push(["port", "validation_invalid_port", "Port must be a whole number from 1 to 65535"]);
  }
  if (body["username"] !== undefined) {
    edit.username = api.text(body["username"]);
    const p = endpoints.usernameProblem(edit.username);
    if (p) problems.push(["username", "validation_invalid_username", p]);
  }
  if (body["password"] !== undefined) {
    edit.password = typeof body["password"] === "string" ? body["password"] : "";
    const p = endpoints.passwordProblem(edit.password);
    if (p) problems.push(["password", "validation_invalid_password", p]);
  }
  if (body["status"] !== undefined) {
    edit.status = api.text(body["status"]).toUpperCase();
    if (inventory.STATUSES.indexOf(edit.status) < 0) {
      problems.push(["status", "validation_invalid_status", `Status must be one of ${inventory.STATUSES.join(", ")}`]);
    }
  }
  if (problems.length === 0 && Object.keys(edit).length === 0) {
    problems.push(["host", "validation_required", "Nothing to change: send host, port, username, password or status"]);
  }
  proxies.throwProblems(problems);
  return edit;
}

/**
 * @param {CoreApp} app
 * @param {string} id
 */
function findProxy(app, id) {
  if (!inventory.PROXY_ID.test(id)) throw new NotFoundError("No proxy with this id.");
  try {
    return app.findRecordById("proxies", id);
  } catch (_) {
    throw new NotFoundError("No proxy with this id.");
  }
}

/**
 * The owner's e-mail ("" without an owner or when the user is gone).
 * @param {CoreApp} app
 * @param {string} userId
 */
function emailOf(app, userId) {
  if (!userId) return "";
  const row = new DynamicModel({ email: "" });
  try {
    app.db().newQuery("SELECT email FROM users WHERE id = {:id}").bind({ id: userId }).one(row);
  } catch (_) {
    return "";
  }
  return row.email;
}

/**
 * What an edit may change, as stored.
 * @param {core.Record} record
 */
function editable(record) {
  return {
    host: record.getString("host"),
    port: record.getInt("port"),
    username: record.getString("username"),
    status: record.getString("status"),
  };
}

/**
 * Applies a status change to `record` (not saved). Assigned comes only from a purchase or
 * renewal (an owned proxy in its term keeps it); Available on an owned proxy releases it
 * from its customer with a new password (unless the edit sets one); Expired is for a
 * customer's proxy (its term ends now); Maintenance is for a proxy without a customer.
 * @param {core.Record} record
 * @param {string} status
 * @param {ProxyEdit} edit  its password is set when the customer's must stop working
 */
function changeStatus(record, status, edit) {
  const owner = record.getString("assigned_to_user_id");
  const expiresAt = record.getString("expires_at");
  const now = new DateTime();
  const fail = (/** @type {string} */ message) => api.fieldError("status", message);
  if (status === "ASSIGNED" && !(owner && expiresAt && new DateTime(expiresAt).after(now))) {
    throw fail(
      owner
        ? "This proxy's term has ended: the customer renews it to make it Assigned again."
        : "A proxy becomes Assigned when a customer buys it; this one has no customer.",
    );
  }
  if (status === "EXPIRED" && !owner) throw fail("Only a customer's proxy can be Expired; this one has no customer.");
  if (status === "MAINTENANCE" && owner) {
    throw fail("This proxy belongs to a customer: set it Available first (they lose it), then Maintenance.");
  }
  if (status === "AVAILABLE" && owner) {
    record.set("assigned_to_user_id", "");
    record.set("expires_at", "");
    record.set("auto_renew", false);
    record.set("expiry_notice_sent_at", "");
    // The former customer's credentials stop working.
    if (edit.password === undefined) edit.password = proxies.newPassword();
  }
  if (status === "EXPIRED" && expiresAt && new DateTime(expiresAt).after(now)) record.set("expires_at", now);
  record.set("status", status);
}

/**
 * Refuses (400 on host, port and username) an endpoint another proxy already has.
 * @param {CoreApp} txApp
 * @param {string} id
 * @param {{ host: string, port: number, username: string }} endpoint
 */
function assertEndpointFree(txApp, id, endpoint) {
  const clash = new DynamicModel({ id: "" });
  try {
    txApp
      .db()
      .newQuery("SELECT id FROM proxies WHERE host = {:host} AND port = {:port} AND username = {:username} AND id != {:id} LIMIT 1")
      .bind({ ...endpoint, id })
      .one(clash);
  } catch (_) {
    return;
  }
  const message = "Another proxy already has this host, port and username";
  const taken = () => new ValidationError("validation_not_unique", message);
  throw new BadRequestError(message, { host: taken(), port: taken(), username: taken() });
}

/**
 * Applies an admin edit inside the caller's transaction and describes it for the audit
 * log: {field: {from, to}}, the released owner, and {password: {changed: true}}.
 * @param {CoreApp} txApp
 * @param {string} id
 * @param {ProxyEdit} edit
 * @returns {Record<string, unknown>}  the changes
 */
function applyEdit(txApp, id, edit) {
  const record = findProxy(txApp, id);
  const owner = record.getString("assigned_to_user_id");
  const before = editable(record);
  const after = {
    host: edit.host ?? before.host,
    port: edit.port ?? before.port,
    username: edit.username ?? before.username,
    status: edit.status ?? before.status,
  };
  if (after.status !== before.status) changeStatus(record, after.status, edit);
  if (after.host !== before.host || after.port !== before.port || after.username !== before.username) {
    assertEndpointFree(txApp, id, after);
    record.set("host", after.host);
    record.set("port", after.port);
    record.set("username", after.username);
  }

  /** @type {Record<string, unknown>} */
  const changes = {};
  for (const field of /** @type {const} */ (["host", "port", "username", "status"])) {
    if (after[field] !== before[field]) changes[field] = { from: before[field], to: after[field] };
  }
  if (record.getString("assigned_to_user_id") !== owner) {
    changes["assigned_to_user_id"] = { from: owner, to: "", owner_email: emailOf(txApp, owner) };
  }
  if (edit.password !== undefined) {
    const current = credentials.openPassword(record.getString("password_encrypted"));
    if (edit.password !== current) {
      record.set("password_encrypted", credentials.sealPassword(edit.password));
      changes["password"] = { changed: true };
    }
  }
  if (Object.keys(changes).length > 0) txApp.save(record);
  return changes;
}

/**
 * Deletes a proxy inside the caller's transaction; returns what the audit log keeps of it.
 * @param {CoreApp} txApp
 * @param {string} id
 */
function remove(txApp, id) {
  const record = findProxy(txApp, id);
  const owner = record.getString("assigned_to_user_id");
  const details = {
    ...editable(record),
    type: record.getString("type"),
    country: record.getString("country"),
    owner: owner ? { id: owner, email: emailOf(txApp, owner) } : null,
  };
  txApp.delete(record);
  return details;
}

/**
 * PATCH /api/admin/proxies/{id}  {host?, port? 1-65535, username?, password?, status?} -> the
 * proxy as GET answers it. Status rules: changeStatus. (host, port, username) stays unique
 * (400 on host, port and username). Audit proxies.update {changes: {field: {from, to}},
 * password: {changed: true}}.
 * @param {core.RequestEvent} e
 */
function editRoute(e) {
  admin.requireAdminWrite(e);
  const id = e.request?.pathValue("id") ?? "";
  const edit = validateEdit(api.jsonBody(e));
  admin.auditedChange(e, (txApp) => ({
    result: null,
    audit: { action: "proxies.update", targetType: "proxies", targetId: id, details: { changes: applyEdit(txApp, id, edit) } },
  }));
  return e.json(200, inventory.detail(e.app, id));
}

/**
 * DELETE /api/admin/proxies/{id} -> 204; audit proxies.delete {host, port, username, type,
 * country, status, owner: {id, email} | null}.
 * @param {core.RequestEvent} e
 */
function deleteRoute(e) {
  admin.requireAdminWrite(e);
  const id = e.request?.pathValue("id") ?? "";
  admin.auditedChange(e, (txApp) => ({
    result: null,
    audit: { action: "proxies.delete", targetType: "proxies", targetId: id, details: remove(txApp, id) },
  }));
  return e.noContent(204);
}

module.exports = { validateEdit, applyEdit, remove, editRoute, deleteRoute };
