// @ts-check
// Proxy Management's bulk import: host:port:username:password lines (an IPv6 host in
// brackets: [2001:db8::1]:port:username:password, read by lib/proxies/import-lines.js),
// checked and sealed before the transaction, inserted by one SQL statement with the audit
// row. Refused in demo mode.

/** @type {typeof import("../audit/admin.js")} */
const admin = require(`${__hooks}/lib/audit/admin.js`);
/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
/** @type {typeof import("./endpoints.js")} */
const endpoints = require(`${__hooks}/lib/proxies/endpoints.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("./import-lines.js")} */
const importLines = require(`${__hooks}/lib/proxies/import-lines.js`);

const MAX_IMPORT_LINES = proxies.CATALOG.inventory.max_import_lines;
/** The import text may not be larger than this (10,000 long lines). */
const MAX_IMPORT_CHARS = 3000000;
const IMPORT_DEFAULT_TYPE = "DATACENTER";
const IMPORT_DEFAULT_COUNTRY = "Unknown";
const NO_VALID_LINES = "No valid proxies found in import data";

/**
 * @typedef {object} ImportLine
 * @property {number} line
 * @property {string} host
 * @property {number} port
 * @property {string} username
 * @property {string} sealed
 * @property {string} text  the line as given (trimmed)
 */

/**
 * @typedef {{ line: number, text: string, reason: string }} Skipped
 */

/**
 * Checks an import body and parses its lines: what to insert and what is skipped (and why).
 * Sealing happens here, before the transaction, so the write lock is held only for the inserts.
 * @param {Record<string, unknown>} body
 */
function parseImport(body) {
  const text = typeof body["text"] === "string" ? body["text"] : "";
  const batch = {
    type: api.text(body["type"]).toUpperCase() || IMPORT_DEFAULT_TYPE,
    country: api.text(body["country"]) || IMPORT_DEFAULT_COUNTRY,
    state: api.text(body["state"]),
    city: api.text(body["city"]),
  };
  /** @type {[string, string, string][]} */
  const problems = [];
  if (!text.trim()) problems.push(["text", "validation_required", "Paste or upload host:port:username:password lines to import"]);
  else if (text.length > MAX_IMPORT_CHARS) problems.push(["text", "validation_max_size", "The import is too large: at most 10,000 lines"]);
  problems.push(...proxies.typeProblems(batch.type));
  if (batch.country === IMPORT_DEFAULT_COUNTRY) {
    if (batch.state || batch.city) problems.push(["state", "validation_invalid_state", "Choose a country before a state"]);
  } else {
    batch.country = batch.country.toUpperCase();
    require(`${__hooks}/lib/proxies/places.js`).checkPlace(batch, problems, false);
  }
  proxies.throwProblems(problems);

  const lines = text.split(/\r\n|\n|\r/);
  while (lines.length > 0 && !(lines[lines.length - 1] ?? "").trim()) lines.pop();
  const counted = lines.filter((l) => l.trim()).length;
  if (counted > MAX_IMPORT_LINES) {
    throw api.fieldError(
      "text",
      `Too many lines: ${counted}. Import at most 10,000 proxies at once; split the file and import the parts one after another.`,
      "validation_max_lines",
    );
  }

  /** @type {ImportLine[]} */
  const valid = [];
  /** @type {Skipped[]} */
  const skipped = [];
  /** @type {Record<string, number>} */
  const seen = {};
  const seal = credentials.sealer();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (!trimmed) return;
    const skip = (/** @type {string} */ reason) => skipped.push({ line, text: trimmed.slice(0, 300), reason });
    const parts = importLines.splitImportLine(trimmed);
    if ("reason" in parts) return skip(parts.reason);
    const { host, username, password } = parts;
    const port = endpoints.portOf(parts.port);
    if (Number.isNaN(port)) return skip("Bad port: must be a whole number from 1 to 65535");
    const problem =
      (parts.ipv6 ? "" : endpoints.hostProblem(host)) || endpoints.usernameProblem(username) || endpoints.passwordProblem(password);
    if (problem) return skip(`Malformed: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`);
    const key = `${host}\u0000${port}\u0000${username}`;
    const first = seen[key];
    if (first) return skip(`Duplicate of line ${first} in this file`);
    seen[key] = line;
    valid.push({ line, host, port, username, sealed: seal(password), text: trimmed.slice(0, 300) });
  });
  return { batch, valid, skipped };
}

/**
 * The import's one INSERT: every row comes from a JSON array parameter, so 10,000 lines cost
 * one statement (the write lock is held for the inserts alone, not for 10,000 round trips
 * between the JS VM and SQLite). A clash with the unique endpoint index inserts nothing.
 */
const INSERT_IMPORT = `INSERT INTO proxies (id, host, port, username, password_encrypted, type, country, state, city, status,
  assigned_to_user_id, expires_at, auto_renew, expiry_notice_sent_at, created, updated)
  SELECT j.value ->> '$[0]', j.value ->> '$[1]', j.value ->> '$[2]', j.value ->> '$[3]', j.value ->> '$[4]',
    {:type}, {:country}, {:state}, {:city}, 'AVAILABLE', '', '', FALSE, '', {:now}, {:now}
  FROM json_each({:rows}) AS j
  WHERE true
  ON CONFLICT DO NOTHING`;

/**
 * Inserts the parsed lines in the caller's transaction; a line whose endpoint is already in
 * stock is skipped. Returns the number imported (skipped lines are added to `skipped`).
 * @param {CoreApp} txApp
 * @param {ReturnType<typeof parseImport>} parsed
 */
function insertImport(txApp, parsed) {
  const ids = parsed.valid.map(() => sql.newId());
  const rows = parsed.valid.map((row, i) => [ids[i], row.host, row.port, row.username, row.sealed]);
  const imported = txApp
    .db()
    .newQuery(INSERT_IMPORT)
    .bind({ rows: JSON.stringify(rows), now: new DateTime().string(), ...parsed.batch })
    .execute()
    .rowsAffected();
  if (imported < rows.length) {
    // Some endpoints were already in stock: the lines whose new id is not in the table.
    const missing = sql.rowsLike({ id: "" });
    txApp
      .db()
      .newQuery("SELECT j.value AS id FROM json_each({:ids}) AS j WHERE NOT EXISTS (SELECT 1 FROM proxies p WHERE p.id = j.value)")
      .bind({ ids: JSON.stringify(ids) })
      .all(missing);
    const notInserted = new Set(missing.map((m) => m.id));
    parsed.valid.forEach((row, i) => {
      if (notInserted.has(ids[i] ?? "")) {
        parsed.skipped.push({ line: row.line, text: row.text, reason: "Already in stock (same host, port and username)" });
      }
    });
  }
  parsed.skipped.sort((a, b) => a.line - b.line);
  return imported;
}

/**
 * POST /api/admin/proxies/import  {text, type? (DATACENTER), country? ("Unknown"), state?, city?}
 * -> {imported, skipped: [{line, text, reason}], message: "Successfully imported N proxies"};
 * up to 10,000 lines in one transaction. Skipped: malformed (not 4 non-empty parts, bad
 * host/username/password), bad port, duplicate in the file, already in stock. No valid
 * line: 400 "No valid proxies found in import data" with data.skipped; over 10,000 lines:
 * 400 on text. Audit proxies.import {imported, skipped, type, country, state, city}.
 * @param {core.RequestEvent} e
 */
function importRoute(e) {
  admin.requireAdminWrite(e);
  const parsed = parseImport(api.jsonBody(e));
  const noneValid = () =>
    e.json(400, {
      status: 400,
      message: NO_VALID_LINES,
      data: { text: { code: "no_valid_proxies", message: NO_VALID_LINES }, skipped: parsed.skipped },
    });
  if (parsed.valid.length === 0) return noneValid();
  /** @type {number} */
  let imported = 0;
  try {
    imported = admin.auditedChange(e, (txApp) => {
      const n = insertImport(txApp, parsed);
      // Every line was already in stock: nothing to keep, nothing to log.
      if (n === 0) throw new Error("nothing imported");
      return {
        result: n,
        audit: {
          action: "proxies.import",
          targetType: "proxies",
          targetId: "",
          details: { imported: n, skipped: parsed.skipped.length, ...parsed.batch },
        },
      };
    });
  } catch (err) {
    if (String(err).indexOf("nothing imported") >= 0) return noneValid();
    throw err;
  }
  return e.json(200, {
    imported,
    skipped: parsed.skipped,
    message: `Successfully imported ${proxies.proxiesLabel(imported)}`,
  });
}

module.exports = { MAX_IMPORT_LINES, parseImport, insertImport, importRoute };
