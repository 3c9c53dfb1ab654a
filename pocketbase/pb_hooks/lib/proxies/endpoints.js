// @ts-check
// What an admin may give a proxy in the console (edit and import): an upstream's host name,
// IPv4 or IPv6 address (stored without brackets) and port, usernames and passwords that fit
// a host:port:username:password line, and IP addresses and CIDR ranges (bind addresses and
// the gateway settings).

/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
/** @type {typeof import("../core/ip-address.js")} */
const ip = require(`${__hooks}/lib/core/ip-address.js`);

const MAX_USERNAME_LENGTH = 100;
// No lookahead: goja runs those on a much slower regexp engine (the length is checked apart).
const HOSTNAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const USERNAME = /^[\x21-\x39\x3b-\x7e]+$/; // visible ASCII except ":"

const HOST_RULE = "Host must be a host name, an IPv4 address or an IPv6 address";

/**
 * A host as an admin typed it, ready to check and store: trimmed, lower-cased, an IPv6
 * address without the brackets URLs write around it ("[2001:db8::1]" -> "2001:db8::1").
 * @param {string} text
 */
function normalizeHost(text) {
  const host = text.trim().toLowerCase();
  return host.charAt(0) === "[" && host.charAt(host.length - 1) === "]" ? host.slice(1, -1) : host;
}

/**
 * What is wrong with a normalized host ("" when fine): a host name, IPv4 or IPv6 address.
 * @param {string} host
 */
function hostProblem(host) {
  if (!host) return "Host is required";
  if (host.indexOf(":") >= 0) return ip.isIpv6(host) ? "" : HOST_RULE;
  if (host.length > 253 || !HOSTNAME.test(host)) return HOST_RULE;
  return "";
}

/**
 * A port from a JSON value or text: a whole number 1-65535, else NaN.
 * @param {unknown} v
 */
function portOf(v) {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,5}$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : NaN;
}

/** @param {string} username */
function usernameProblem(username) {
  if (!username) return "Username is required";
  if (username.length > MAX_USERNAME_LENGTH) return `Username must be at most ${MAX_USERNAME_LENGTH} characters`;
  if (!USERNAME.test(username)) return "Username may use visible ASCII characters except spaces and colons";
  return "";
}

/** @param {string} password */
function passwordProblem(password) {
  const problem = credentials.passwordProblem(password);
  if (problem) return problem;
  if (password.indexOf(":") >= 0) return "Password cannot contain colons";
  return "";
}

/**
 * True for an IPv4 or IPv6 address (IPv6 lower-case, no brackets, no zone).
 * @param {string} text
 */
function isIp(text) {
  return ip.isIpv4(text) || ip.isIpv6(text);
}

/**
 * True for a CIDR range: an IP address, "/" and a prefix length (0-32 for IPv4, 0-128 for
 * IPv6), IPv6 lower-case.
 * @param {string} text
 */
function isCidr(text) {
  const slash = text.indexOf("/");
  if (slash < 0) return false;
  const address = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bits)) return false;
  if (ip.isIpv4(address)) return Number(bits) <= 32;
  return ip.isIpv6(address) && Number(bits) <= 128;
}

/**
 * A list typed as text (comma, space or newline separated) as its items: trimmed, IPv6
 * brackets removed, lower-case, duplicates dropped.
 * @param {string} text
 * @returns {string[]}
 */
function listItems(text) {
  /** @type {string[]} */
  const items = [];
  for (const raw of text.split(/[\s,]+/)) {
    const item = normalizeHost(raw);
    if (item && items.indexOf(item) < 0) items.push(item);
  }
  return items;
}

module.exports = { normalizeHost, hostProblem, portOf, usernameProblem, passwordProblem, isIp, isCidr, listItems };
