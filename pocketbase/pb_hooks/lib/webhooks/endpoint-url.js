// @ts-check
// The check of a webhook endpoint's URL when a customer saves it (issue #18): https only
// outside the embedded default, no user name or password in the URL, and a host that is not
// a literal private, loopback, link-local or metadata address. This is the friendly early
// answer; the real guard is the dispatcher's, at connect time (pocketbase/webhooks: every
// address a name resolves to is checked as it is dialled, so DNS rebinding cannot pass).
//
// "Embedded default" is the gateway's notion (pocketbase/gateway_start.go): GATEWAY_HOST
// (default 127.0.0.1) is a loopback address, and SHOP_APP_URL, when set, names a loopback
// host too. There (`npm start` on one machine, and the tests) plain http and loopback
// endpoints are allowed. pocketbase/webhooks_start.go decides the same way.

/** @type {typeof import("../core/facts.js")} */
const facts = require(`${__hooks}/lib/core/facts.js`);
/** The most characters of an endpoint's URL (the contract's). */
const URL_LIMIT = facts.facts().webhooks.max_url_length;

const MESSAGES = {
  required: "Enter the endpoint's URL, e.g. https://example.com/webhooks.",
  tooLong: `The URL must be at most ${URL_LIMIT} characters.`,
  invalid: "Enter a valid URL, e.g. https://example.com/webhooks.",
  https: "The endpoint must use https://.",
  credentials: "The URL must not contain a user name or password.",
  private: "The endpoint must be reachable on the internet: private, loopback, link-local and metadata addresses are refused.",
};

/**
 * IPv4 ranges an endpoint may not use outside the embedded default, as [first octets,
 * prefix length] (the same list as pocketbase/gateway/guard.go blockedRanges).
 * @type {Array<[number[], number]>}
 */
const BLOCKED_V4 = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[224], 4],
  [[240], 4],
];

/**
 * True when `host` is a loopback name or address ("localhost", 127.x, ::1, ::ffff:127.x:
 * Go's netip IsLoopback, which pocketbase/gateway_start.go asks, unmaps that form too).
 * @param {string} host
 */
function isLoopbackHost(host) {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (h === "localhost") return true;
  const v4 = parseIPv4(h);
  if (v4) return v4[0] === 127;
  const v6 = parseIPv6(h);
  if (v6 === null) return false;
  if (v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff) return (v6[6] ?? 0) >> 8 === 127;
  return v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1;
}

/** True in the embedded default (see the top of this file): loopback endpoints and http allowed. */
function embeddedDefault() {
  const gatewayHost = ($os.getenv("GATEWAY_HOST") || "").trim() || "127.0.0.1";
  if (!isLoopbackHost(gatewayHost)) return false;
  const appUrl = ($os.getenv("SHOP_APP_URL") || "").trim();
  if (!appUrl) return true;
  const parts = splitUrl(appUrl);
  return parts !== null && isLoopbackHost(parts.host);
}

/**
 * Four octets of a dotted-quad IPv4 address, or null.
 * @param {string} text
 * @returns {number[] | null}
 */
function parseIPv4(text) {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return null;
  const octets = text.split(".").map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/**
 * Eight 16-bit groups of an IPv6 address (an embedded IPv4 tail allowed), or null.
 * @param {string} text
 * @returns {number[] | null}
 */
function parseIPv6(text) {
  let s = text.toLowerCase();
  if (s.indexOf(":") < 0 || !/^[0-9a-f:.]+$/.test(s)) return null;
  const lastColon = s.lastIndexOf(":");
  if (s.indexOf(".", lastColon) > 0) {
    // An embedded IPv4 tail (::ffff:10.0.0.1): written as its two groups instead.
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4) return null;
    const hex = (/** @type {number} */ hi, /** @type {number} */ lo) => ((hi << 8) | lo).toString(16);
    s = `${s.slice(0, lastColon + 1)}${hex(v4[0] ?? 0, v4[1] ?? 0)}:${hex(v4[2] ?? 0, v4[3] ?? 0)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  /** @param {string} part */
  const groups = (part) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0] ?? "");
  const rest = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = new Array(8 - known).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...rest.map((g) => parseInt(g, 16))];
}

/**
 * The IPv4 address an IPv6 address carries in one of the forms that reach it (issue #26
 * finding 9), or null: IPv4-mapped ::ffff:a.b.c.d (::ffff:0:0/96), IPv4-compatible ::a.b.c.d
 * (::/96, "::" and "::1" included: 0.0.0.0 and 0.0.0.1), NAT64 64:ff9b::a.b.c.d
 * (64:ff9b::/96, RFC 6052: a NAT64 gateway on the path dials the IPv4 address) and 6to4
 * 2002:AABB:CCDD:: (2002::/16, RFC 3056: the IPv4 address in bits 16-47). Checked as the
 * IPv4 address they carry, here (the early answer) and by the gateway's Go guard at connect
 * time (pocketbase/gateway/guard.go, which the dispatcher dials through).
 * @param {number[]} v6  eight 16-bit groups
 * @returns {number[] | null}  four octets
 */
function embeddedIPv4(v6) {
  /** @param {number} hi @param {number} lo */
  const octets = (hi, lo) => [hi >> 8, hi & 255, lo >> 8, lo & 255];
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = v6;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0 || f === 0xffff)) return octets(g, h);
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return octets(g, h);
  if (a === 0x2002) return octets(b, c);
  return null;
}

/**
 * True when an address literal is private, loopback, link-local, metadata, multicast or
 * otherwise not a public internet address. An IPv6 form that carries an IPv4 address
 * (embeddedIPv4) is that IPv4 address: refused when it is, accepted when it is public.
 * @param {string} host  without brackets
 */
function isBlockedAddress(host) {
  const v4 = parseIPv4(host);
  if (v4) return blockedV4(v4);
  const v6 = parseIPv6(host);
  if (!v6) return false;
  const carried = embeddedIPv4(v6);
  if (carried) return blockedV4(carried);
  const [a = 0, b = 0, c = 0] = v6;
  if (a === 0x64 && b === 0xff9b && c === 1) return true; // 64:ff9b:1::/48
  if ((a & 0xfe00) === 0xfc00) return true; // fc00::/7
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10
  if ((a & 0xff00) === 0xff00) return true; // ff00::/8
  return false;
}

/**
 * @param {number[]} octets
 */
function blockedV4(octets) {
  const value = (((octets[0] ?? 0) << 24) >>> 0) + ((octets[1] ?? 0) << 16) + ((octets[2] ?? 0) << 8) + (octets[3] ?? 0);
  return BLOCKED_V4.some(([start, bits]) => {
    const base = (((start[0] ?? 0) << 24) >>> 0) + ((start[1] ?? 0) << 16) + ((start[2] ?? 0) << 8) + (start[3] ?? 0);
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (value & mask) >>> 0 === (base & mask) >>> 0;
  });
}

/**
 * The parts of an absolute http(s) URL, or null when it is not one.
 * @param {string} url
 * @returns {{scheme: string, userinfo: boolean, host: string, port: string} | null}
 */
function splitUrl(url) {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([/?#].*)?$/i.exec(url);
  if (!match) return null;
  const scheme = (match[1] ?? "").toLowerCase();
  let authority = match[2] ?? "";
  const at = authority.lastIndexOf("@");
  const userinfo = at >= 0;
  if (userinfo) authority = authority.slice(at + 1);
  let host = "";
  let port = "";
  if (authority.charAt(0) === "[") {
    const close = authority.indexOf("]");
    if (close < 0) return null;
    host = authority.slice(1, close);
    const after = authority.slice(close + 1);
    if (after && after.charAt(0) !== ":") return null;
    port = after.slice(1);
    if (!parseIPv6(host)) return null;
  } else {
    const colon = authority.indexOf(":");
    host = colon >= 0 ? authority.slice(0, colon) : authority;
    port = colon >= 0 ? authority.slice(colon + 1) : "";
  }
  return { scheme, userinfo, host: host.toLowerCase().replace(/\.$/, ""), port };
}

/**
 * What is wrong with an endpoint URL ("" when it may be saved).
 * @param {unknown} value
 * @param {{embedded?: boolean}} [options]  embedded: override the environment's embedded default (tests)
 */
function endpointUrlProblem(value, options = {}) {
  const url = typeof value === "string" ? value.trim() : "";
  if (!url) return MESSAGES.required;
  if (url.length > URL_LIMIT) return MESSAGES.tooLong;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return MESSAGES.invalid;
  const parts = splitUrl(url);
  if (!parts || (parts.scheme !== "https" && parts.scheme !== "http")) return MESSAGES.invalid;
  if (parts.userinfo) return MESSAGES.credentials;
  if (parts.port && !(/^\d{1,5}$/.test(parts.port) && Number(parts.port) >= 1 && Number(parts.port) <= 65535)) return MESSAGES.invalid;
  const host = parts.host;
  const isV6 = parseIPv6(host) !== null;
  if (!host || (!isV6 && !/^[a-z0-9_.-]+$/.test(host))) return MESSAGES.invalid;
  const embedded = options.embedded ?? embeddedDefault();
  if (embedded) return "";
  if (parts.scheme !== "https") return MESSAGES.https;
  // A host whose last label is a number is an IPv4 address in some spelling (2130706433,
  // 0x7f.1, 127.1): only the plain dotted quad is accepted, and checked.
  const last = host.split(".").pop() ?? "";
  if (!isV6 && /^(\d+|0x[0-9a-f]*)$/.test(last) && !parseIPv4(host)) return MESSAGES.invalid;
  if (host === "localhost" || /\.localhost$/.test(host) || isBlockedAddress(host)) return MESSAGES.private;
  return "";
}

/**
 * The URL to store (trimmed), or a 400 naming the field `url` with the problem.
 * @param {unknown} value
 * @returns {string}
 */
function validateEndpointUrl(value) {
  const problem = endpointUrlProblem(value);
  if (problem) {
    /** @type {typeof import("../core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    throw api.fieldError("url", problem, problem === MESSAGES.required ? "validation_required" : "validation_invalid_value");
  }
  return /** @type {string} */ (value).trim();
}

module.exports = {
  MESSAGES,
  embeddedDefault,
  isLoopbackHost,
  embeddedIPv4,
  isBlockedAddress,
  endpointUrlProblem,
  validateEndpointUrl,
};
