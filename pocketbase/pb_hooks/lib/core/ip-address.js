// @ts-check
// IP addresses in text, read and written once for the whole shop: the IP allowlist
// (lib/accounts/ip-allowlist.js), import lines and endpoints (lib/proxies/import-lines.js,
// endpoints.js) and the gateway settings (lib/settings/setting-rules.js). Plain JS with no
// PocketBase globals (goja has no Node modules; the unit tests load it in Node). Addresses
// are written as Go's net/netip writes them, since the gateway (Go) parses what is stored.

const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const OCTET = /^(0|[1-9][0-9]{0,2})$/;

/**
 * The four bytes of a dotted IPv4 address (four numbers 0-255, no leading zeros), or null.
 * @param {string} text
 * @returns {number[] | null}
 */
function parseIpv4(text) {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  /** @type {number[]} */
  const bytes = [];
  for (const part of parts) {
    if (!OCTET.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    bytes.push(n);
  }
  return bytes;
}

/**
 * The sixteen bytes of an IPv6 address in text form (lower case; "::" once at most for one
 * or more zero groups; an IPv4 address allowed as the last 32 bits; no zone), or null.
 * @param {string} text
 * @returns {number[] | null}
 */
function parseIpv6(text) {
  if (text.length < 2 || text.length > 45) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  /** @type {number[][]} */
  const groupsOf = [[], []];
  for (let h = 0; h < halves.length; h++) {
    const half = halves[h] ?? "";
    if (!half) continue;
    const parts = half.split(":");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? "";
      const last = h === halves.length - 1 && i === parts.length - 1;
      const groups = /** @type {number[]} */ (groupsOf[h]);
      if (last && part.indexOf(".") >= 0) {
        const v4 = parseIpv4(part);
        if (!v4) return null;
        groups.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else if (HEX_GROUP.test(part)) {
        groups.push(parseInt(part, 16));
      } else {
        return null;
      }
    }
  }
  const head = /** @type {number[]} */ (groupsOf[0]);
  const tail = /** @type {number[]} */ (groupsOf[1]);
  const given = head.length + tail.length;
  if (halves.length === 2 ? given > 7 : given !== 8) return null;
  const groups = head.concat(new Array(8 - given).fill(0), tail);
  /** @type {number[]} */
  const bytes = [];
  for (const g of groups) bytes.push(g >> 8, g & 0xff);
  return bytes;
}

/**
 * An address's bytes written as Go's netip.Addr.String writes them.
 * @param {number[]} bytes  4 or 16
 */
function formatAddress(bytes) {
  if (bytes.length === 4) return bytes.join(".");
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return `::ffff:${bytes.slice(12).join(".")}`;
  /** @type {number[]} */
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  // The longest run of two or more zero groups (the first of equal runs) becomes "::".
  let start = -1;
  let length = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > length) {
      start = i;
      length = j - i;
    }
  }
  const hex = (/** @type {number[]} */ list) => list.map((g) => g.toString(16)).join(":");
  if (start < 0) return hex(groups);
  return `${hex(groups.slice(0, start))}::${hex(groups.slice(start + length))}`;
}

/**
 * True for a dotted IPv4 address (four numbers 0-255, no leading zeros).
 * @param {string} text
 */
function isIpv4(text) {
  return parseIpv4(text) !== null;
}

/**
 * True for an IPv6 address in text form (lower case, no brackets, no zone).
 * @param {string} text
 */
function isIpv6(text) {
  return parseIpv6(text) !== null;
}

module.exports = { parseIpv4, parseIpv6, formatAddress, isIpv4, isIpv6 };
