// @ts-check
// Proxy Management's edit body (PATCH /api/admin/proxies/{id}, lib/proxies/inventory-edit.js):
// what each field may be, every broken rule under its field in one 400. Host and port are the
// gateway's and refused here; the rules that need the stored proxy (a free username, a complete
// upstream, the status moves) are checked where the edit is applied.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("./endpoints.js")} */
const endpoints = require(`${__hooks}/lib/proxies/endpoints.js`);
/** @type {typeof import("./inventory.js")} */
const inventory = require(`${__hooks}/lib/proxies/inventory.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/**
 * @typedef {object} ProxyEdit  the fields the request sets (others stay)
 * @property {string} [username]
 * @property {string} [password]
 * @property {string} [status]
 * @property {string} [exit]               "direct" | "upstream"
 * @property {string} [bind_address]       "" or an IP address
 * @property {string} [upstream_host]
 * @property {number} [upstream_port]
 * @property {string} [upstream_username]
 * @property {string} [upstream_password]  set only when given and not ""
 * @property {number} [bandwidth_quota_gb] whole GB a UTC month, 0 = none
 * @property {number} [bandwidth_quota_mb] whole MB a UTC month, 0 = none (instead of GB)
 * @property {number} [max_connections]    at once, 0 = none
 */

const EXITS = ["direct", "upstream"];
/** The limits an admin may set (issue #16): field, largest value, message. */
const LIMITS = /** @type {const} */ ([
  ["bandwidth_quota_gb", 1000000, "Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited)"],
  ["bandwidth_quota_mb", 1024000000, "Bandwidth quota must be a whole number of MB from 0 to 1,024,000,000 (0 = unlimited)"],
  ["max_connections", 100000, "Max concurrent connections must be a whole number from 0 to 100,000 (0 = unlimited)"],
]);
const GATEWAY_ENDPOINT =
  "Host and port are the gateway's and cannot be edited: customers always connect to the gateway (its public host is a System Setting). Change where the proxy exits instead: exit, bind address or upstream.";

/**
 * Checks an edit body {username?, password?, status?, exit?, bind_address?, upstream_host?,
 * upstream_port?, upstream_username?, upstream_password?}; every broken rule in one 400.
 * host and port are refused (400 naming them): they are the gateway's.
 * @param {Record<string, unknown>} body
 * @returns {ProxyEdit}
 */
function validateEdit(body) {
  /** @type {ProxyEdit} */
  const edit = {};
  /** @type {[string, string, string][]} */
  const problems = [];
  for (const field of ["host", "port"]) {
    if (body[field] !== undefined) problems.push([field, "validation_read_only", GATEWAY_ENDPOINT]);
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
  if (body["exit"] !== undefined) {
    edit.exit = api.text(body["exit"]).toLowerCase();
    if (EXITS.indexOf(edit.exit) < 0) problems.push(["exit", "validation_invalid_exit", "Exit must be direct or upstream"]);
  }
  if (body["bind_address"] !== undefined) {
    edit.bind_address = endpoints.normalizeHost(api.text(body["bind_address"]));
    if (edit.bind_address && !endpoints.isIp(edit.bind_address)) {
      problems.push([
        "bind_address",
        "validation_invalid_ip",
        "Bind address must be an IP address of the gateway's machine (IPv4 or IPv6), or empty",
      ]);
    }
  }
  if (body["upstream_host"] !== undefined) {
    edit.upstream_host = endpoints.normalizeHost(api.text(body["upstream_host"]));
    const p = edit.upstream_host ? endpoints.hostProblem(edit.upstream_host) : "";
    if (p)
      problems.push(["upstream_host", "validation_invalid_host", `Upstream host must be a host name, an IPv4 address or an IPv6 address`]);
  }
  if (body["upstream_port"] !== undefined) {
    edit.upstream_port = endpoints.portOf(body["upstream_port"]);
    if (Number.isNaN(edit.upstream_port)) {
      problems.push(["upstream_port", "validation_invalid_port", "Upstream port must be a whole number from 1 to 65535"]);
    }
  }
  if (body["upstream_username"] !== undefined) {
    edit.upstream_username = api.text(body["upstream_username"]);
    const p = edit.upstream_username ? endpoints.usernameProblem(edit.upstream_username) : "";
    if (p) problems.push(["upstream_username", "validation_invalid_username", `Upstream ${p.charAt(0).toLowerCase()}${p.slice(1)}`]);
  }
  const upstreamPassword = body["upstream_password"];
  if (upstreamPassword !== undefined && upstreamPassword !== "" && upstreamPassword !== null) {
    edit.upstream_password = typeof upstreamPassword === "string" ? upstreamPassword : "";
    const p = endpoints.passwordProblem(edit.upstream_password);
    if (p) problems.push(["upstream_password", "validation_invalid_password", `Upstream ${p.charAt(0).toLowerCase()}${p.slice(1)}`]);
  }
  for (const [field, max, message] of LIMITS) {
    if (body[field] === undefined) continue;
    const value = api.wholeNumber(body[field]);
    if (Number.isNaN(value) || value < 0 || value > max) problems.push([field, "validation_invalid_number", message]);
    else edit[field] = value;
  }
  if (body["bandwidth_quota_gb"] !== undefined && body["bandwidth_quota_mb"] !== undefined) {
    problems.push(["bandwidth_quota_mb", "validation_invalid_number", "Send the bandwidth quota once: in GB or in MB, not both"]);
  }
  if (problems.length === 0 && Object.keys(edit).length === 0 && upstreamPassword === undefined) {
    problems.push([
      "username",
      "validation_required",
      "Nothing to change: send username, password, status, exit, bind_address, the upstream's host, port, username and password, bandwidth_quota_gb, bandwidth_quota_mb or max_connections",
    ]);
  }
  proxies.throwProblems(problems);
  return edit;
}

module.exports = { validateEdit };
