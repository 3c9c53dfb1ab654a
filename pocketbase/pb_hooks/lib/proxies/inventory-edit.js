// @ts-check
// Proxy Management's edit and delete (the spec's update_proxy_admin, delete_proxy_admin):
// the customer's credentials, where the proxy exits (issue #16: direct with a bind address,
// or through an upstream whose password stays sealed), its limits (a monthly bandwidth quota
// and a cap on connections at once) and the status rules, and one audit row per change in its own transaction
// (lib/core/admin.js). Refused in demo mode. The body's field rules are lib/proxies/edit-rules.js.

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
/** @type {typeof import("../core/sealing.js")} */
const sealing = require(`${__hooks}/lib/core/sealing.js`);
/** @type {typeof import("./edit-rules.js")} */
const rules = require(`${__hooks}/lib/proxies/edit-rules.js`);
/** @type {typeof import("./inventory.js")} */
const inventory = require(`${__hooks}/lib/proxies/inventory.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/** @typedef {import("./edit-rules.js").ProxyEdit} ProxyEdit */

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
 * What the audit log shows of a proxy, as stored (never a password).
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
 * Where a proxy exits, as stored (never the upstream password).
 * @param {core.Record} record
 */
function exitOf(record) {
  return {
    exit: record.getString("exit") === "upstream" ? "upstream" : "direct",
    bind_address: record.getString("bind_address"),
    upstream_host: record.getString("upstream_host"),
    upstream_port: record.getInt("upstream_port"),
    upstream_username: record.getString("upstream_username"),
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
 * Refuses (400 on username) a username another proxy already has: the gateway finds a
 * proxy by its username.
 * @param {CoreApp} txApp
 * @param {string} id
 * @param {string} username
 */
function assertUsernameFree(txApp, id, username) {
  const clash = new DynamicModel({ id: "" });
  try {
    txApp.db().newQuery("SELECT id FROM proxies WHERE username = {:username} AND id != {:id} LIMIT 1").bind({ username, id }).one(clash);
  } catch (_) {
    return;
  }
  throw api.fieldError("username", "Username is already in use", "validation_not_unique");
}

/**
 * Refuses an upstream exit without the upstream's host, port, username and password (stored
 * or given), each on its field in one 400.
 * @param {ReturnType<typeof exitOf>} after
 * @param {boolean} hasPassword
 */
function assertUpstreamComplete(after, hasPassword) {
  if (after.exit !== "upstream") return;
  /** @type {[string, string, string][]} */
  const problems = [];
  if (!after.upstream_host) problems.push(["upstream_host", "validation_required", "Upstream host is required for an upstream exit"]);
  if (!(after.upstream_port >= 1 && after.upstream_port <= 65535)) {
    problems.push(["upstream_port", "validation_required", "Upstream port is required for an upstream exit"]);
  }
  if (!after.upstream_username) {
    problems.push(["upstream_username", "validation_required", "Upstream username is required for an upstream exit"]);
  }
  if (!hasPassword) problems.push(["upstream_password", "validation_required", "Upstream password is required for an upstream exit"]);
  proxies.throwProblems(problems);
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
  const before = { username: record.getString("username"), status: record.getString("status"), ...exitOf(record) };
  const after = {
    username: edit.username ?? before.username,
    status: edit.status ?? before.status,
    exit: edit.exit ?? before.exit,
    bind_address: edit.bind_address ?? before.bind_address,
    upstream_host: edit.upstream_host ?? before.upstream_host,
    upstream_port: edit.upstream_port ?? before.upstream_port,
    upstream_username: edit.upstream_username ?? before.upstream_username,
  };
  assertUpstreamComplete(after, edit.upstream_password !== undefined || record.getString("upstream_password_encrypted") !== "");
  if (after.status !== before.status) changeStatus(record, after.status, edit);
  if (after.username !== before.username) {
    assertUsernameFree(txApp, id, after.username);
    record.set("username", after.username);
  }

  /** @type {Record<string, unknown>} */
  const changes = {};
  for (const field of /** @type {const} */ (["username", "status"])) {
    if (after[field] !== before[field]) changes[field] = { from: before[field], to: after[field] };
  }
  let upstreamChanged = false;
  for (const field of /** @type {const} */ (["exit", "bind_address", "upstream_host", "upstream_port", "upstream_username"])) {
    if (after[field] === before[field]) continue;
    record.set(field, after[field]);
    changes[field] = { from: before[field], to: after[field] };
    if (field !== "bind_address") upstreamChanged = true;
  }
  if (record.getString("assigned_to_user_id") !== owner) {
    changes["assigned_to_user_id"] = { from: owner, to: "", owner_email: emailOf(txApp, owner) };
  }
  if (edit.password !== undefined) {
    const current = sealing.openPassword(record.getString("password_encrypted"));
    if (edit.password !== current) {
      // A new password must be as hard to guess as a generated one (#26 finding 7).
      const problem = credentials.proxyPasswordProblem(edit.password, current);
      if (problem) throw api.fieldError("password", problem, "validation_invalid_password");
      record.set("password_encrypted", sealing.sealPassword(edit.password));
      changes["password"] = { changed: true };
    }
  }
  if (edit.upstream_password !== undefined) {
    const current = sealing.openPassword(record.getString("upstream_password_encrypted"));
    if (edit.upstream_password !== current) {
      record.set("upstream_password_encrypted", sealing.sealPassword(edit.upstream_password));
      changes["upstream_password"] = { changed: true };
      upstreamChanged = true;
    }
  }
  const { GB, MB } = require(`${__hooks}/lib/proxies/usage.js`);
  // A quota in whole GB or whole MB (a 500 MB trial, issue #28); the audit names the unit given.
  const [quotaField, quota, unit] =
    edit.bandwidth_quota_mb !== undefined
      ? ["bandwidth_quota_mb", edit.bandwidth_quota_mb, MB]
      : ["bandwidth_quota_gb", edit.bandwidth_quota_gb, GB];
  if (quota !== undefined) {
    const from = record.getInt("bandwidth_quota_bytes");
    if (from !== quota * unit) {
      record.set("bandwidth_quota_bytes", quota * unit);
      changes[quotaField] = { from: from / unit, to: quota };
    }
  }
  if (edit.max_connections !== undefined && record.getInt("max_connections") !== edit.max_connections) {
    changes["max_connections"] = { from: record.getInt("max_connections"), to: edit.max_connections };
    record.set("max_connections", edit.max_connections);
  }
  // The gateway's last failure was about the upstream as it was.
  if (upstreamChanged) {
    record.set("upstream_failed_at", "");
    record.set("upstream_error", "");
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
 * PATCH /api/admin/proxies/{id}  {username?, password?, status?, exit? (direct | upstream),
 * bind_address? ("" or an IP address), upstream_host?, upstream_port? 1-65535,
 * upstream_username?, upstream_password? (absent or "" keeps the stored one),
 * bandwidth_quota_gb? (whole GB a UTC month, 0-1,000,000, 0 = none) or bandwidth_quota_mb?
 * (whole MB, 0-1,024,000,000; one of the two), stored as bandwidth_quota_bytes (GB = 2^30,
 * MB = 2^20 bytes), max_connections? (0-100,000, 0 = none)} -> the proxy
 * as GET answers it (never the upstream password). host and port are refused (400 on
 * each): they are the gateway's. Status rules: changeStatus. Usernames are unique (400
 * "Username is already in use"). An upstream exit needs the upstream's host, port,
 * username and a password (stored or given). A change of the exit or the upstream clears
 * the gateway's last upstream failure. Audit proxies.update {changes: {field: {from, to}}
 * (bandwidth_quota_gb in GB, bandwidth_quota_mb in MB: the unit sent),
 * password: {changed: true}, upstream_password: {changed: true}}.
 * @param {core.RequestEvent} e
 */
function editRoute(e) {
  admin.requireAdminWrite(e);
  const id = e.request?.pathValue("id") ?? "";
  const edit = rules.validateEdit(api.jsonBody(e));
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

module.exports = { applyEdit, remove, editRoute, deleteRoute };
