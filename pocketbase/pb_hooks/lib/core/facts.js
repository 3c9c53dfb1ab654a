// @ts-check
// The API contract's facts the hooks need, read from lib/facts.json: `npm run openapi`
// writes it from src/lib/api-contract/facts.ts (beside catalog.json), and npm run check
// fails when it is stale. The hooks state none of these facts themselves.

/**
 * @typedef {object} Facts
 * @property {WebhookFacts} webhooks
 * @property {string[]} activity_kinds  what an account_activity row is about (sign_in ...)
 * @property {{ scopes: string[], max_active: number, max_spend_cap_cents: number }} api_keys
 *   the scopes a key may hold, the most active keys an account may have, the highest monthly spend cap
 * @property {{ defaults: GatewayPorts, by_type: Record<string, (keyof GatewayPorts)[]> }} gateway_ports
 *   the gateway's ports when the environment names none, and the ports each proxy type answers on
 * @property {{ default_minutes: number, max_minutes: number }} gateway_sessions
 *   a RESIDENTIAL proxy's sticky session: its default and longest length (-sesstime-<minutes>)
 * @property {string[]} plan_placeholders  the facts a plan's feature text may name ("{session_max_hours}")
 */

/**
 * @typedef {object} WebhookFacts
 * @property {{ type: string, summary: string }[]} events  the events an endpoint can subscribe to, in order
 * @property {number} max_endpoints  endpoints an account may have
 * @property {number} max_url_length  characters of an endpoint's URL
 * @property {number} max_description_length  characters of its description
 * @property {{ min: number, max: number }} balance_low_cents  balance.low's threshold range
 */

/** @typedef {{ http: number, socks5: number, https: number }} GatewayPorts */

/**
 * The facts (the VM caches the parsed file, as it does catalog.json).
 * @returns {Facts}
 */
function facts() {
  return require(`${__hooks}/lib/facts.json`);
}

module.exports = { facts };
