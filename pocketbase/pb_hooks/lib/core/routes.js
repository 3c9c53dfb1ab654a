// @ts-check
// Route tables (issue #27): a domain's HTTP routes are one line each in a table under
// lib/api/routes/, keyed by "METHOD /path". A *.pb.js registers its table with register()
// and one handler line that looks the route up again with dispatch(): the JS VM rebuilds a
// handler from its own source text, so a handler cannot close over a loop's variables, but
// PocketBase's router (Go's ServeMux) sets e.request.pattern to the "METHOD /path" that
// matched, which is the table's key. Adding a route is one line in a table.
//
// A plain function in a table is a route for signed-in users ($apis.requireAuth("users"));
// open(), superusers() and limitBody() mark the others. Admin routes are users' routes that
// refuse non-admins inside (lib/core/admin.js), as before.

/** @typedef {(e: core.RequestEvent) => unknown} Handler */
/** @typedef {{ handle: Handler, auth: "users" | "superusers" | "none", bodyLimit?: number }} Route */
/** @typedef {Record<string, Handler | Route>} RouteTable */

/**
 * A domain's route table, as written (this gives its handlers their type).
 * @param {RouteTable} routes
 * @returns {RouteTable}
 */
function table(routes) {
  return routes;
}

/**
 * A route anyone may call, signed in or not (sign-up, setup, the public stock summary).
 * @param {Handler} handle
 * @returns {Route}
 */
function open(handle) {
  return { handle, auth: "none" };
}

/**
 * A route for PocketBase superusers only (the jobs the tests and operators start).
 * @param {Handler} handle
 * @returns {Route}
 */
function superusers(handle) {
  return { handle, auth: "superusers" };
}

/**
 * An open route whose body may be up to `bytes` (a payment provider's webhook).
 * @param {number} bytes
 * @param {Handler} handle
 * @returns {Route}
 */
function limitBody(bytes, handle) {
  return { handle, auth: "none", bodyLimit: bytes };
}

/**
 * The route a table holds for `pattern`, with its defaults.
 * @param {RouteTable} table
 * @param {string} pattern
 * @returns {Route | undefined}
 */
function routeOf(table, pattern) {
  const entry = Object.prototype.hasOwnProperty.call(table, pattern) ? table[pattern] : undefined;
  if (!entry) return undefined;
  return typeof entry === "function" ? { handle: entry, auth: "users" } : entry;
}

/**
 * The middlewares PocketBase runs before a route's handler.
 * @param {Route} route
 */
function middlewaresOf(route) {
  const found = [];
  if (route.auth === "users") found.push($apis.requireAuth("users"));
  if (route.auth === "superusers") found.push($apis.requireSuperuserAuth());
  if (route.bodyLimit) found.push($apis.bodyLimit(route.bodyLimit));
  return found;
}

/**
 * Registers every route of `table` with the one `handler` line of its *.pb.js, which must
 * call dispatch() with the same table.
 * @param {RouteTable} table
 * @param {Handler} handler
 */
function register(table, handler) {
  for (const pattern of Object.keys(table)) {
    const [method, path] = pattern.split(" ");
    const route = routeOf(table, pattern);
    if (!method || !path || !route) throw new Error(`A route table's key must be "METHOD /path": ${pattern}`);
    routerAdd(method, path, /** @type {any} */ (handler), ...middlewaresOf(route));
  }
}

/**
 * Runs the route of `table` that PocketBase matched for this request.
 * @param {core.RequestEvent} e
 * @param {RouteTable} table
 */
function dispatch(e, table) {
  const route = routeOf(table, e.request?.pattern ?? "");
  if (!route) throw new NotFoundError("The requested resource wasn't found.");
  return route.handle(e);
}

module.exports = { table, open, superusers, limitBody, register, dispatch };
