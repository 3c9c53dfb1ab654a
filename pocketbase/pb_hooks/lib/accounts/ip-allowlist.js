// @ts-check
// The customer's IP allowlist (issue #16): the addresses and CIDR ranges from which the
// gateway answers their proxies (users.ip_allowlist, a JSON list of strings; [] or null =
// from anywhere). Only PUT /api/v1/account/ip-allowlist writes it (the users update rule
// locks the field, 1764600100_gateway_exits.js), after checking and normalising every
// entry here; a trigger then tells the gateway about each of the user's proxies.
//
// The pure functions use no PocketBase globals: the unit tests load this file in Node
// (tests/unit/ip-allowlist.test.ts). Entries are written as Go's net/netip writes them
// (lib/core/ip-address.js; the gateway parses them with it), a range with its host bits
// zeroed ("10.1.2.3/8" -> "10.0.0.0/8"); a range of one address (/32, /128) is that address.

/** @type {typeof import("../core/ip-address.js")} */
const ip = require(`${__hooks}/lib/core/ip-address.js`);

/** The most entries a list may hold (after duplicates are removed). */
const MAX_ENTRIES = 100;
/** Longer than any address or range can be written ("ffff:...:255.255.255.255/128" is 50). */
const MAX_ENTRY_CHARS = 64;
/** A `text` body longer than this cannot hold MAX_ENTRIES sensible entries. */
const MAX_TEXT_CHARS = 10000;
/** An entry quoted in a message is cut to this many characters. */
const QUOTE_CHARS = 60;

const PREFIX = /^(0|[1-9][0-9]{0,2})$/;
/** What separates entries in a `text` body: new lines, commas, semicolons, spaces. */
const SEPARATORS = /[\s,;]+/;

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
  const bytes = addressText.indexOf(":") >= 0 ? ip.parseIpv6(addressText) : ip.parseIpv4(addressText);
  if (!bytes) return invalid;
  const bits = bytes.length * 8;
  if (slash < 0) return { entry: ip.formatAddress(bytes) };
  const prefixText = text.slice(slash + 1);
  if (!PREFIX.test(prefixText)) return invalid;
  const prefix = Number(prefixText);
  if (prefix > bits) return invalid;
  const everyone = { error: `${quote(given)} would let every address in: to remove the restriction, clear the list instead.` };
  if (prefix === 0) return everyone;
  if (prefix === bits) return { entry: ip.formatAddress(bytes) };
  const masked = bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  const entry = `${ip.formatAddress(masked)}/${prefix}`;
  // Every IPv4 address, written IPv4-mapped (the gateway compares IPv4 callers unmapped).
  if (entry === "::ffff:0.0.0.0/96") return everyone;
  return { entry };
}

/** The most bad entries one message names (the rest are counted). */
const MAX_NAMED_ERRORS = 20;

/**
 * A whole list checked and normalised, duplicates removed (first one kept, in the given
 * order); blank entries are skipped. Every bad entry is named in one error, in order (at
 * most MAX_NAMED_ERRORS, then how many more), so a pasted list is fixed in one go; a list
 * longer than MAX_ENTRIES is an error too. That each entry is a text the document states
 * (the request validation refused anything else before the hook ran).
 * @param {string[]} items
 * @returns {{ entries: string[] } | { error: string }}
 */
function normaliseList(items) {
  /** @type {string[]} */
  const entries = [];
  /** @type {string[]} */
  const errors = [];
  /** @type {Record<string, boolean>} */
  const seen = {};
  for (const item of items) {
    if (!item.trim()) continue;
    const parsed = parseEntry(item);
    if ("error" in parsed) {
      errors.push(parsed.error);
      continue;
    }
    if (seen[parsed.entry]) continue;
    seen[parsed.entry] = true;
    entries.push(parsed.entry);
  }
  if (errors.length > 0) {
    const more = errors.length - MAX_NAMED_ERRORS;
    const named = errors.slice(0, MAX_NAMED_ERRORS).join(" ");
    return { error: more > 0 ? `${named} And ${more} more ${more === 1 ? "entry" : "entries"} like these.` : named };
  }
  if (entries.length > MAX_ENTRIES) {
    return { error: `The list can hold at most ${MAX_ENTRIES} addresses or ranges: use ranges to cover more.` };
  }
  return { entries };
}

/**
 * The entries of a request body: `entries` (a list of texts), or `text` (entries separated
 * by new lines, commas or spaces). `entries` wins when both are sent. Their types are the
 * document's (the request validation answers a list that is not one, or a text that is
 * not one); that one of them is sent, and their sizes, are checked here.
 * @param {Record<string, unknown>} body
 * @returns {{ entries: string[] } | { error: string }}
 */
function entriesFromBody(body) {
  const list = body["entries"];
  if (Array.isArray(list)) {
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
  return require(`${__hooks}/lib/core/sql.js`).textList(stored);
}

/**
 * The signed-in user's allowlist as the routes answer it.
 * @param {core.Record} user
 */
function answer(user) {
  return { entries: storedList(user.getString("ip_allowlist")) };
}

/**
 * The activity log's sentence for a saved list.
 * @param {string[]} entries
 */
function allowlistSummary(entries) {
  if (entries.length === 0) return "Cleared the proxy IP allowlist";
  const shown = entries.slice(0, 3).join(", ");
  const more = entries.length > 3 ? ` and ${entries.length - 3} more` : "";
  return `Set the proxy IP allowlist to ${shown}${more}`;
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
 * data.entries naming every bad entry ("'10.0.0.300' is not an IP address or CIDR
 * range"; a /0 range is refused: clear the list instead). Demo accounts are refused in demo
 * mode (403). Writing a changed list makes a gateway_changes row for each of the user's
 * proxies (the 1764600100 trigger) and an ip_allowlist_changed row in the customer's
 * activity log (lib/activity/activity.js), in one transaction; an unchanged list writes
 * nothing. An optional Idempotency-Key (lib/core/changes.js answerChange, keyed on the
 * normalised entries): a retry with it answers the first answer and changes nothing again;
 * the key sent with another list is a 422. No audit row: the customer's own setting (admins
 * see it in the console's user detail).
 * @param {core.RequestEvent} e
 */
function replace(e) {
  const api = require(`${__hooks}/lib/core/api.js`);
  const user = api.actingCustomer(e);
  const parsed = entriesFromBody(api.jsonBody(e));
  if ("error" in parsed) throw api.fieldError("entries", parsed.error);
  const entries = parsed.entries;
  /** @type {typeof import("../core/changes.js")} */
  const changes = require(`${__hooks}/lib/core/changes.js`);
  return changes.answerChange(e, { userId: user.id, route: "PUT /api/v1/account/ip-allowlist", input: { entries } }, (txApp) => {
    const record = txApp.findRecordById("users", user.id);
    const before = storedList(record.getString("ip_allowlist"));
    if (JSON.stringify(before) !== JSON.stringify(entries)) {
      record.set("ip_allowlist", entries);
      txApp.save(record);
      require(`${__hooks}/lib/activity/activity.js`).record(txApp, e, user.id, "ip_allowlist_changed", allowlistSummary(entries), {
        entries: entries.length,
      });
    }
    return { entries };
  });
}

module.exports = { MAX_ENTRIES, parseEntry, normaliseList, entriesFromBody, storedList, show, replace };
