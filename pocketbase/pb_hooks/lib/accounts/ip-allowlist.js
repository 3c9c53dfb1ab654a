// @ts-check
// The customer's IP allowlist (issue #16): the addresses and CIDR ranges from which the
// gateway answers their proxies (users.ip_allowlist, a JSON list of strings; [] or null =
// from anywhere). Only PUT /api/v1/account/ip-allowlist writes it (the users update rule
// locks the field, 1764600100_gateway_exits.js), after checking and normalising every
// entry here; a trigger then tells the gateway about each of the user's proxies.
//
// The parsing is plain JS (goja has no Node modules) and the pure functions use no
// PocketBase globals: the unit tests load this file in Node (tests/unit/ip-allowlist.test.ts).
// Entries are written as Go's net/netip writes them (the gateway parses them with it):
// IPv4 dotted without leading zeros, IPv6 lower-case in RFC 5952 form (the longest run of
// two or more zero groups as "::", an IPv4-mapped address as ::ffff:1.2.3.4), a range with
// its host bits zeroed ("10.1.2.3/8" -> "10.0.0.0/8"); a range of one address (/32, /128)
// is that address.

/** The most entries a list may hold (after duplicates are removed). */
const MAX_ENTRIES = 100;
/** Longer than any address or range can be written ("ffff:...:255.255.255.255/128" is 50). */
const MAX_ENTRY_CHARS = 64;
/** A `text` body longer than this cannot hold MAX_ENTRIES sensible entries. */
const MAX_TEXT_CHARS = 10000;
/** An entry quoted in a message is cut to this many characters. */
const QUOTE_CHARS = 60;

const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const OCTET = /^(0|[1-9][0-9]{0,2})$/;
const PREFIX = /^(0|[1-9][0-9]{0,2})$/;
/** What separates entries in a `text` body: new lines, commas, semicolons, spaces. */
const SEPARATORS = /[\s,;]+/;

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
 * `text` cut to QUOTE_CHARS characters for a message.
 * @param {string} text
 */
function quote(text) {
  const chars = Array.from(text);
  return `'${chars.length > QUOTE_CHARS ? `${chars.slice(0, QUOTE_CHARS).join("")}...` : text}'`;
}

/**
 * One entry checked and normalised: an IPv4 or IPv6 address, or a CIDR range (IPv4 /1-/32,
 * IPv6 /1-/128) with its host bits zeroed. A /0 range (everyone; also ::ffff:0.0.0.0/96,
 * every IPv4 address) is refused with its own message: clearing the list is how a customer
 * removes the restriction.
 * @param {string} raw
 * @returns {{ entry: string } | { error: string }}
 */
function parseEntry(raw) {
  const given = raw.trim();
  const text = given.toLowerCase();
  const invalid = { error: `${quote(given)} is not an IP address or CIDR range.` };
  if (!text || text.length > MAX_ENTRY_CHARS) return invalid;
  const slash = text.indexOf("/");
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const bytes = addressText.indexOf(":") >= 0 ? parseIpv6(addressText) : parseIpv4(addressText);
  if (!bytes) return invalid;
  const bits = bytes.length * 8;
  if (slash < 0) return { entry: formatAddress(bytes) };
  const prefixText = text.slice(slash + 1);
  if (!PREFIX.test(prefixText)) return invalid;
  const prefix = Number(prefixText);
  if (prefix > bits) return invalid;
  const everyone = { error: `${quote(given)} would let every address in: to remove the restriction, clear the list instead.` };
  if (prefix === 0) return everyone;
  if (prefix === bits) return { entry: formatAddress(bytes) };
  const masked = bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  const entry = `${formatAddress(masked)}/${prefix}`;
  // Every IPv4 address, written IPv4-mapped (the gateway compares IPv4 callers unmapped).
  if (entry === "::ffff:0.0.0.0/96") return everyone;
  return { entry };
}

/**
 * A whole list checked and normalised, duplicates removed (first one kept, in the given
 * order); blank entries are skipped. The first bad entry, or a list longer than
 * MAX_ENTRIES, is the error.
 * @param {unknown[]} items
 * @returns {{ entries: string[] } | { error: string }}
 */
function normaliseList(items) {
  /** @type {string[]} */
  const entries = [];
  /** @type {Record<string, boolean>} */
  const seen = {};
  for (const item of items) {
    if (typeof item !== "string") {
      return { error: "Each entry must be a text: an IP address (203.0.113.7, 2001:db8::1) or a CIDR range (203.0.113.0/24)." };
    }
    if (!item.trim()) continue;
    const parsed = parseEntry(item);
    if ("error" in parsed) return parsed;
    if (seen[parsed.entry]) continue;
    seen[parsed.entry] = true;
    entries.push(parsed.entry);
    if (entries.length > MAX_ENTRIES) break;
  }
  if (entries.length > MAX_ENTRIES) {
    return { error: `The list can hold at most ${MAX_ENTRIES} addresses or ranges: use ranges to cover more.` };
  }
  return { entries };
}

/**
 * The entries of a request body: `entries` (a list of texts), or `text` (entries separated
 * by new lines, commas or spaces). `entries` wins when both are sent.
 * @param {Record<string, unknown>} body
 * @returns {{ entries: string[] } | { error: string }}
 */
function entriesFromBody(body) {
  const list = body["entries"];
  if (list !== undefined) {
    if (!Array.isArray(list)) {
      return { error: "Entries must be a list of IP addresses or CIDR ranges ([] removes the restriction)." };
    }
    if (list.length > MAX_ENTRIES * 10) {
      return { error: `The list can hold at most ${MAX_ENTRIES} addresses or ranges: use ranges to cover more.` };
    }
    return normaliseList(list);
  }
  const text = body["text"];
  if (typeof text === "string") {
    if (text.length > MAX_TEXT_CHARS) {
      return { error: `The list can hold at most ${MAX_ENTRIES} addresses or ranges: use ranges to cover more.` };
    }
    return normaliseList(text.split(SEPARATORS));
  }
  return {
    error: "Send entries: a list of IP addresses or CIDR ranges ([] removes the restriction).",
  };
}

/**
 * A stored users.ip_allowlist (JSON text; "", "null" or anything but a list of texts = none)
 * as the list of its entries.
 * @param {string} stored
 * @returns {string[]}
 */
function storedList(stored) {
  /** @type {unknown} */
  let value = null;
  try {
    value = JSON.parse(stored || "null");
  } catch (_) {
    return [];
  }
  return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
}

/**
 * The signed-in user's allowlist as the routes answer it.
 * @param {core.Record} user
 */
function answer(user) {
  return { entries: storedList(user.getString("ip_allowlist")) };
}

/**
 * GET /api/v1/account/ip-allowlist -> {entries: string[]}: the signed-in user's allowlist
 * ([] = their proxies answer connections from anywhere).
 * @param {core.RequestEvent} e
 */
function show(e) {
  return e.json(200, answer(require(`${__hooks}/lib/core/api.js`).customer(e)));
}

/**
 * PUT /api/v1/account/ip-allowlist {entries: string[]} (or {text}: entries separated by new
 * lines, commas or spaces) -> {entries}: replaces the signed-in user's allowlist. Each entry
 * an IPv4/IPv6 address or CIDR range, normalised (trimmed, lower-case, host bits zeroed),
 * duplicates and blanks dropped, at most 100; [] removes the restriction. 400 with
 * data.entries naming the first bad entry ("'10.0.0.300' is not an IP address or CIDR
 * range"; a /0 range is refused: clear the list instead). Demo accounts are refused in demo
 * mode (403). Writing a changed list makes a gateway_changes row for each of the user's
 * proxies (the 1764600100 trigger); an unchanged list writes nothing. No audit row: the
 * customer's own setting (admins see it in the console's user detail).
 * @param {core.RequestEvent} e
 */
function replace(e) {
  const api = require(`${__hooks}/lib/core/api.js`);
  const user = api.actingCustomer(e);
  const parsed = entriesFromBody(api.jsonBody(e));
  if ("error" in parsed) throw api.fieldError("entries", parsed.error);
  const record = e.app.findRecordById("users", user.id);
  const before = storedList(record.getString("ip_allowlist"));
  if (JSON.stringify(before) !== JSON.stringify(parsed.entries)) {
    record.set("ip_allowlist", parsed.entries);
    e.app.save(record);
  }
  return e.json(200, { entries: parsed.entries });
}

module.exports = { MAX_ENTRIES, parseEntry, normaliseList, entriesFromBody, storedList, show, replace };
