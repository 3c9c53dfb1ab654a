// @ts-check
// Where customers connect (issue #16): every proxy is reached through the shop's gateway,
// so a proxy's `host` and `port` are the gateway's, not the upstream's. One function
// computes them: host = setting gateway_public_host, else the host name of SHOP_APP_URL,
// else "localhost"; port = the first of the gateway ports the contract gives the proxy's
// type (lib/facts.json gateway_ports: http for HTTP, HTTPS, RESIDENTIAL and DATACENTER,
// socks5 for SOCKS5; https, listed too, is never the first), GATEWAY_HTTP_PORT,
// GATEWAY_SOCKS_PORT and GATEWAY_HTTPS_PORT or the defaults there. The
// columns are a stored copy (search, filters, exports and the records API read them),
// kept in step by syncEndpoints: on every start (proxies.pb.js), after a change of the
// setting (settings.pb.js) and by the 1764600200 migration. `ports` lists every port of
// the gateway a proxy's type may use: customer answers carry it beside host and port.

/** @type {typeof import("../core/facts.js")} */
const facts = require(`${__hooks}/lib/core/facts.js`);
/** The gateway's ports when the environment names none, and the ports of each proxy type (the contract's). */
const PORTS = facts.facts().gateway_ports;

/** @typedef {{ http?: number, socks5?: number, https?: number }} GatewayPorts */
/** @typedef {{ host: string, port: number, ports: GatewayPorts }} GatewayEndpoint */

/**
 * A port from the environment, `fallback` when unset or not a port 1-65535.
 * @param {string} name
 * @param {number} fallback
 */
function envPort(name, fallback) {
  const raw = ($os.getenv(name) || "").trim();
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1 && n <= 65535 ? n : fallback;
}

/** The gateway's ports: {http, socks5, https} from the environment (the contract's defaults when unset). */
function gatewayPorts() {
  return {
    http: envPort("GATEWAY_HTTP_PORT", PORTS.defaults.http),
    socks5: envPort("GATEWAY_SOCKS_PORT", PORTS.defaults.socks5),
    https: envPort("GATEWAY_HTTPS_PORT", PORTS.defaults.https),
  };
}

/**
 * The ports a proxy of `type` may use on the gateway, as the contract gives them
 * (RESIDENTIAL and DATACENTER all three, HTTP http, HTTPS http and https, SOCKS5 socks5).
 * @param {string} type
 * @returns {GatewayPorts}
 */
function portsFor(type) {
  const all = gatewayPorts();
  /** @type {GatewayPorts} */
  const ports = {};
  for (const name of PORTS.by_type[type] ?? []) ports[name] = all[name];
  return ports;
}

/**
 * The host name of a URL ("https://shop.example:8443/x" -> "shop.example", an IPv6
 * address without brackets), "" when there is none.
 * @param {string} url
 */
function hostOfUrl(url) {
  let rest = url.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  rest = rest.split(/[/?#]/)[0] ?? "";
  const at = rest.lastIndexOf("@");
  if (at >= 0) rest = rest.slice(at + 1);
  if (rest.charAt(0) === "[") {
    const close = rest.indexOf("]");
    return close > 0 ? rest.slice(1, close).toLowerCase() : "";
  }
  return (rest.split(":")[0] ?? "").toLowerCase();
}

/**
 * The name customers connect to: setting gateway_public_host, else SHOP_APP_URL's host
 * name, else "localhost".
 * @param {CoreApp} app
 */
function publicHost(app) {
  /** @type {typeof import("../core/settings.js")} */
  const values = require(`${__hooks}/lib/core/settings.js`);
  const setting = (values.settingText(app, "gateway_public_host") ?? "").trim().toLowerCase();
  if (setting) return setting;
  return hostOfUrl($os.getenv("SHOP_APP_URL") || "") || "localhost";
}

/**
 * Where a customer connects to a proxy of `type`: {host, port, ports}.
 * @param {string} type
 * @param {CoreApp} [app]  reads the setting (a transaction's app inside one); default $app
 * @returns {GatewayEndpoint}
 */
function gatewayEndpoint(type, app) {
  const ports = portsFor(type);
  const port = ports.http ?? ports.socks5 ?? gatewayPorts().http;
  return { host: publicHost(app ?? $app), port, ports };
}

/**
 * The SQL expression of a proxy's `ports` as JSON text (for the customer routes' columns):
 * the environment's ports, fixed for the life of the process.
 */
function portsSql() {
  const all = gatewayPorts();
  /** @param {(keyof GatewayPorts)[]} names */
  const object = (names) => `json_object(${names.map((name) => `'${name}', ${all[name]}`).join(", ")})`;
  const cases = Object.keys(PORTS.by_type).map((type) => `WHEN '${type}' THEN ${object(PORTS.by_type[type] ?? [])}`);
  return `CASE type ${cases.join(" ")} ELSE ${object(/** @type {(keyof GatewayPorts)[]} */ (Object.keys(all)))} END`;
}

/**
 * Rewrites host and port of every proxy whose copy differs from the gateway endpoint of
 * its type (one UPDATE per type). Returns how many rows changed.
 * @param {CoreApp} app
 */
function syncEndpoints(app) {
  let changed = 0;
  for (const type of Object.keys(PORTS.by_type)) {
    const { host, port } = gatewayEndpoint(type, app);
    changed += app
      .db()
      .newQuery("UPDATE proxies SET host = {:host}, port = {:port} WHERE type = {:type} AND (host != {:host} OR port != {:port})")
      .bind({ host, port, type })
      .execute()
      .rowsAffected();
  }
  return changed;
}

/**
 * Adds `ports` to a proxy record answered to its owner (custom data, like `password`).
 * @param {core.Record} record
 * @returns {core.Record}
 */
function withPorts(record) {
  record.withCustomData(true);
  record.set("ports", portsFor(record.getString("type")));
  return record;
}

module.exports = {
  gatewayEndpoint,
  gatewayPorts,
  portsFor,
  portsSql,
  publicHost,
  hostOfUrl,
  syncEndpoints,
  withPorts,
};
