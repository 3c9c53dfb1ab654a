// @ts-check
// What an admin may give a proxy's endpoint in the console (edit and import): a host name
// or IPv4 address, a port, a username and a password that fit a host:port:username:password line.

/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);

const MAX_USERNAME_LENGTH = 100;
// No lookahead: goja runs those on a much slower regexp engine (the length is checked apart).
const HOSTNAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const USERNAME = /^[\x21-\x39\x3b-\x7e]+$/; // visible ASCII except ":"

/**
 * What is wrong with a host ("" when fine): a host name or IPv4 address (lower-cased by the caller).
 * @param {string} host
 */
function hostProblem(host) {
  if (!host) return "Host is required";
  if (host.length > 253 || !HOSTNAME.test(host)) return "Host must be a host name or an IPv4 address";
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

module.exports = { hostProblem, portOf, usernameProblem, passwordProblem };
