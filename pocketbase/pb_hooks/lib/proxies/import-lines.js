// @ts-check
// Reading one line of a proxy import (lib/proxies/import.js): an upstream proxy as
// `host:port:username:password`, or `[2001:db8::1]:port:username:password` for an IPv6 host (brackets, as URLs write it;
// the host is stored without them). Pure functions, no PocketBase globals: the unit tests
// load this file in Node (tests/unit/proxy-import-lines.test.ts).

const MALFORMED = "Malformed: expected host:port:username:password";
const BARE_IPV6 = "Malformed: write an IPv6 host in brackets, [2001:db8::1]:port:username:password";
const BAD_IPV6 = "Malformed: the host in brackets must be an IPv6 address";

/** @type {typeof import("../core/ip-address.js")} */
const ip = require(`${__hooks}/lib/core/ip-address.js`);

/**
 * One trimmed, non-blank import line split into its parts, or the reason it is skipped.
 * The host is lower-cased; an IPv6 host comes without its brackets (`ipv6` true), checked
 * here; a host name or IPv4 address is checked by the caller (endpoints.hostProblem).
 * @param {string} line
 * @returns {{ host: string, port: string, username: string, password: string, ipv6: boolean } | { reason: string }}
 */
function splitImportLine(line) {
  if (line.charAt(0) === "[") {
    const close = line.indexOf("]");
    if (close < 0 || line.charAt(close + 1) !== ":") return { reason: MALFORMED };
    const host = line.slice(1, close).trim().toLowerCase();
    const rest = line
      .slice(close + 2)
      .split(":")
      .map((p) => p.trim());
    if (rest.length !== 3 || rest.some((p) => !p) || !host) return { reason: MALFORMED };
    if (!ip.isIpv6(host)) return { reason: BAD_IPV6 };
    return { host, port: rest[0] ?? "", username: rest[1] ?? "", password: rest[2] ?? "", ipv6: true };
  }
  const parts = line.split(":").map((p) => p.trim());
  if (parts.length > 4 && line.indexOf("::") >= 0) return { reason: BARE_IPV6 };
  if (parts.length !== 4 || parts.some((p) => !p)) return { reason: MALFORMED };
  return { host: (parts[0] ?? "").toLowerCase(), port: parts[1] ?? "", username: parts[2] ?? "", password: parts[3] ?? "", ipv6: false };
}

/**
 * What a report may show of an import line: its upstream host and port only (an IPv6 host
 * in brackets), never the username and password after them. A line without a colon is
 * shown as given (it holds no credentials in their place); at most 300 characters.
 * @param {string} line  trimmed
 */
function lineForReport(line) {
  if (line.charAt(0) === "[") {
    const close = line.indexOf("]");
    if (close < 0) return line.split(":")[0]?.slice(0, 300) ?? "";
    const port = line.slice(close + 1).split(":")[1];
    return (port === undefined ? line.slice(0, close + 1) : `${line.slice(0, close + 1)}:${port.trim()}`).slice(0, 300);
  }
  return line
    .split(":")
    .slice(0, 2)
    .map((p) => p.trim())
    .join(":")
    .slice(0, 300);
}

module.exports = { splitImportLine, lineForReport, MALFORMED };
