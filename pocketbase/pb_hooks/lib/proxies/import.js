// @ts-check
// Proxy Management's bulk import of UPSTREAM proxies (issue #16): host:port:username:password
// lines (an IPv6 host in brackets: [2001:db8::1]:port:username:password, read by
// lib/proxies/import-lines.js) name the upstream each new proxy exits through. Every line
// becomes a proxy with exit "upstream", the upstream's credentials sealed in
// upstream_password_encrypted, and the shop's own customer credentials (a new random
// unique username and password) on the gateway's host and port. Checked and sealed before
// the transaction, inserted by one SQL statement with the audit row. No answer or audit
// row carries an upstream's username or password (a skipped line shows its host:port).
// Refused in demo mode.

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../core/sealing.js")} */
const sealing = require(`${__hooks}/lib/core/sealing.js`);
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
 * @property {string} host      the upstream's
 * @property {number} port      the upstream's
 * @property {string} username  the upstream's
 * @property {string} sealed    the upstream's password, sealed
 * @property {string} text      what the report may show of the line (importLines.lineForReport)
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
  const seal = sealing.sealer();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (!trimmed) return;
    const skip = (/** @type {string} */ reason) => skipped.push({ line, text: importLines.lineForReport(trimmed), reason });
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
    valid.push({ line, host, port, username, sealed: seal(password), text: importLines.lineForReport(trimmed) });
  });
  return { batch, valid, skipped };
}

/**
 * The import's one INSERT: every row comes from a JSON array parameter, so 10,000 lines cost
 * one statement (the write lock is held for the inserts alone, not for 10,000 round trips
 * between the JS VM and SQLite). Each row: [id, username, password (sealed), upstream host,
 * upstream port, upstream username, upstream password (sealed)]. An upstream already
 * imported (same host, port and username; idx_proxies_upstream) or a clash with the unique
 * username index inserts nothing.
 */
const INSERT_IMPORT = `INSERT INTO proxies (id, host, port, username, password_encrypted, type, country, state, city, status,
  assigned_to_user_id, expires_at, auto_renew, expiry_notice_sent_at, exit, bind_address,
  upstream_host, upstream_port, upstream_username, upstream_password_encrypted, upstream_failed_at, upstream_error, created, updated)
  SELECT j.value ->> '$[0]', {:host}, {:port}, j.value ->> '$[1]', j.value ->> '$[2]',
    {:type}, {:country}, {:state}, {:city}, 'AVAILABLE', '', '', FALSE, '', 'upstream', '',
    j.value ->> '$[3]', j.value ->> '$[4]', j.value ->> '$[5]', j.value ->> '$[6]', '', '', {:now}, {:now}
  FROM json_each({:rows}) AS j
  WHERE NOT EXISTS (SELECT 1 FROM proxies p WHERE p.upstream_host = j.value ->> '$[3]'
    AND p.upstream_port = j.value ->> '$[4]' AND p.upstream_username = j.value ->> '$[5]')
  ON CONFLICT DO NOTHING`;

/** The lines (as [line, id]) whose proxy is not in the table, and whether their upstream is. */
const NOT_INSERTED = `SELECT j.value ->> '$[0]' AS id, EXISTS (SELECT 1 FROM proxies p WHERE p.upstream_host = j.value ->> '$[1]'
    AND p.upstream_port = j.value ->> '$[2]' AND p.upstream_username = j.value ->> '$[3]') AS imported
  FROM json_each({:rows}) AS j WHERE NOT EXISTS (SELECT 1 FROM proxies p WHERE p.id = j.value ->> '$[0]')`;

/**
 * Inserts the parsed lines in the caller's transaction, each with new customer credentials
 * on the gateway's endpoint; a line whose upstream was imported before is skipped, a line
 * whose new username happened to be taken is drawn again. Returns the number imported
 * (skipped lines are added to `skipped`).
 * @param {CoreApp} txApp
 * @param {ReturnType<typeof parseImport>} parsed
 */
function insertImport(txApp, parsed) {
  const { host, port } = require(`${__hooks}/lib/proxies/gateway-endpoint.js`).gatewayEndpoint(parsed.batch.type, txApp);
  const seal = sealing.sealer();
  const now = new DateTime().string();
  let pending = parsed.valid;
  let imported = 0;
  for (let round = 0; pending.length > 0; round++) {
    if (round > 5) throw new InternalServerError("Could not find free usernames for the import; try again.");
    const ids = pending.map(() => sql.newId());
    const rows = pending.map((row, i) => [
      ids[i],
      proxies.newUsername(parsed.batch.type, parsed.batch.country),
      seal(proxies.newPassword()),
      row.host,
      row.port,
      row.username,
      row.sealed,
    ]);
    const n = txApp
      .db()
      .newQuery(INSERT_IMPORT)
      .bind({ rows: JSON.stringify(rows), host, port, now, ...parsed.batch })
      .execute()
      .rowsAffected();
    imported += n;
    if (n === rows.length) break;
    const missing = sql.rowsLike({ id: "", imported: 0 });
    txApp
      .db()
      .newQuery(NOT_INSERTED)
      .bind({ rows: JSON.stringify(rows.map((r) => [r[0], r[3], r[4], r[5]])) })
      .all(missing);
    const byId = new Map(missing.map((m) => [m.id, m.imported > 0]));
    /** @type {ImportLine[]} */
    const again = [];
    pending.forEach((row, i) => {
      const id = ids[i] ?? "";
      if (!byId.has(id)) return;
      if (byId.get(id)) {
        parsed.skipped.push({ line: row.line, text: row.text, reason: "Already imported (same upstream host, port and username)" });
      } else {
        again.push(row); // its random username was taken: another one
      }
    });
    pending = again;
  }
  parsed.skipped.sort((a, b) => a.line - b.line);
  return imported;
}

/**
 * POST /api/admin/proxies/import  {text, type? (DATACENTER), country? ("Unknown"), state?, city?}
 * -> {imported, skipped: [{line, text (the upstream's host:port only), reason}], message:
 * "Successfully imported N proxies"}; up to 10,000 upstream lines in one transaction, each
 * a proxy with exit upstream and new customer credentials. Skipped: malformed (not 4
 * non-empty parts, bad host/username/password), bad port, duplicate in the file, upstream
 * already imported (same upstream host, port and username). No valid
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
