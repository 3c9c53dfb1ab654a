// @ts-check
// The console's proxy inventory (console-proxies.pb.js): the admin list and stats by SQL,
// one proxy with its password, the edit and delete rules, and batch generate and import
// (one SQL transaction each, passwords sealed by lib/proxies/credentials.js before it starts).

/** @type {typeof import("../audit/admin.js")} */
const admin = require(`${__hooks}/lib/audit/admin.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

const STATUSES = ["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"];
const MAX_GENERATE = 1000;
const MAX_IMPORT_LINES = 10000;
/** The import text may not be larger than this (10,000 long lines). */
const MAX_IMPORT_CHARS = 3000000;
const IMPORT_DEFAULT_TYPE = "DATACENTER";
const IMPORT_DEFAULT_COUNTRY = "Unknown";
const MAX_USERNAME_LENGTH = 100;
// No lookahead: goja runs those on a much slower regexp engine (the length is checked apart).
const HOSTNAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const USERNAME = /^[\x21-\x39\x3b-\x7e]+$/; // visible ASCII except ":"
const ID = /^[a-z0-9]{1,30}$/;

/**
 * The reference list of places: country code -> {name, states: state -> cities}.
 * @returns {Record<string, { name: string, states: Record<string, string[]> }>}
 */
function locations() {
  return require(`${__hooks}/lib/locations.json`);
}

/**
 * @param {string} field
 * @param {string} message
 * @param {string} [code]
 */
function fieldError(field, message, code = "validation_invalid_value") {
  return new BadRequestError(message, { [field]: new ValidationError(code, message) });
}

/**
 * Every broken rule under its field in one 400 (the first one's message on top).
 * @param {[string, string, string][]} problems  field, code, message
 */
function throwProblems(problems) {
  if (problems.length === 0) return;
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  for (const [field, code, message] of problems) errors[field] ??= new ValidationError(code, message);
  throw new BadRequestError(problems[0]?.[2] ?? "", errors);
}

/** @param {unknown} v */
function str(v) {
  return typeof v === "string" ? v.trim() : "";
}

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

// ---- List and stats -----------------------------------------------------------------

/** The admin list's columns (never the password). */
const LIST_COLUMNS = `p.id, p.host, p.port, p.username, p.type, p.country, p.state, p.city, p.status, p.assigned_to_user_id,
  COALESCE(u.email, '') AS owner_email, p.expires_at, p.auto_renew, p.created, p.updated`;

function listShape() {
  return {
    id: "",
    host: "",
    port: 0,
    username: "",
    type: "",
    country: "",
    state: "",
    city: "",
    status: "",
    assigned_to_user_id: "",
    owner_email: "",
    expires_at: "",
    auto_renew: false,
    created: "",
    updated: "",
  };
}

function listRows() {
  return sql.rowsLike(listShape());
}

/**
 * @typedef {object} ListFilters
 * @property {string} search  matches host, username, city, state and the owner's e-mail
 * @property {string} type
 * @property {string} country
 * @property {string} status
 */

/**
 * Reads and checks the list filters from the query string.
 * @param {core.RequestEvent} e
 * @returns {ListFilters}
 */
function listFilters(e) {
  const query = e.request?.url?.query();
  const get = (/** @type {string} */ name) => String(query?.get(name) ?? "").trim();
  const filters = {
    search: get("search").slice(0, 200),
    type: get("type").toUpperCase(),
    country: get("country"),
    status: get("status").toUpperCase(),
  };
  if (filters.type && proxies.PROXY_TYPES.indexOf(filters.type) < 0) {
    throw fieldError("type", `type must be one of ${proxies.PROXY_TYPES.join(", ")}`);
  }
  if (filters.status && STATUSES.indexOf(filters.status) < 0) throw fieldError("status", `status must be one of ${STATUSES.join(", ")}`);
  return filters;
}

/**
 * The WHERE clause of the list and its count, with its parameters.
 * @param {ListFilters} f
 */
function whereOf(f) {
  /** @type {string[]} */
  const parts = [];
  /** @type {Record<string, string>} */
  const params = {};
  if (f.type) {
    parts.push("p.type = {:type}");
    params["type"] = f.type;
  }
  if (f.country) {
    parts.push("p.country = {:country}");
    params["country"] = f.country;
  }
  if (f.status) {
    parts.push("p.status = {:status}");
    params["status"] = f.status;
  }
  if (f.search) {
    params["q"] = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(
      `(p.host LIKE {:q} ESCAPE '\\' OR p.username LIKE {:q} ESCAPE '\\' OR p.city LIKE {:q} ESCAPE '\\' OR p.state LIKE {:q} ESCAPE '\\'
        OR (p.assigned_to_user_id != '' AND p.assigned_to_user_id IN (SELECT id FROM users WHERE email LIKE {:q} ESCAPE '\\')))`,
    );
  }
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

/**
 * One page of the inventory, newest first, without passwords. Ties (a generated or imported
 * batch shares one created time) are broken by rowid, which every created index already
 * carries, so SQLite walks an index instead of sorting a whole batch.
 * @param {CoreApp} app
 * @param {ListFilters} filters
 * @param {{ page: number, perPage: number, offset: number }} paging
 */
function list(app, filters, paging) {
  const where = whereOf(filters);
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM proxies p ${where.sql}`).bind(where.params).one(count);
  const rows = listRows();
  if (count.n > paging.offset) {
    app
      .db()
      .newQuery(
        `SELECT ${LIST_COLUMNS} FROM proxies p LEFT JOIN users u ON u.id = p.assigned_to_user_id ${where.sql}
         ORDER BY p.created DESC, p.rowid DESC LIMIT {:limit} OFFSET {:offset}`,
      )
      .bind({ ...where.params, limit: paging.perPage, offset: paging.offset })
      .all(rows);
  }
  return admin.listPage(rows, count.n, paging);
}

/**
 * Counts by status, type and country in one pass over the inventory index.
 * @param {CoreApp} app
 */
function stats(app) {
  const rows = sql.rowsLike({ status: "", type: "", country: "", n: 0 });
  app.db().newQuery("SELECT status, type, country, COUNT(*) AS n FROM proxies GROUP BY status, type, country").all(rows);
  const out = {
    total: 0,
    available: 0,
    assigned: 0,
    expired: 0,
    maintenance: 0,
    /** @type {Record<string, number>} */
    by_type: {},
    /** @type {Record<string, number>} */
    by_country: {},
  };
  for (const type of proxies.PROXY_TYPES) out.by_type[type] = 0;
  for (const row of rows) {
    out.total += row.n;
    const key = /** @type {"available" | "assigned" | "expired" | "maintenance"} */ (row.status.toLowerCase());
    if (key in out) out[key] += row.n;
    out.by_type[row.type] = (out.by_type[row.type] ?? 0) + row.n;
    out.by_country[row.country] = (out.by_country[row.country] ?? 0) + row.n;
  }
  return out;
}

/**
 * One proxy as the console shows it, with its plaintext password; 404 when there is none.
 * @param {CoreApp} app
 * @param {string} id
 */
function detail(app, id) {
  if (!ID.test(id)) throw new NotFoundError("No proxy with this id.");
  const rows = sql.rowsLike({ ...listShape(), password_encrypted: "" });
  app
    .db()
    .newQuery(
      `SELECT ${LIST_COLUMNS}, p.password_encrypted FROM proxies p LEFT JOIN users u ON u.id = p.assigned_to_user_id WHERE p.id = {:id}`,
    )
    .bind({ id })
    .all(rows);
  const row = rows[0];
  if (!row) throw new NotFoundError("No proxy with this id.");
  const { password_encrypted, ...rest } = row;
  return { ...rest, password: credentials.openPassword(password_encrypted) };
}

// ---- Edit and delete ----------------------------------------------------------------

/**
 * @typedef {object} ProxyEdit  the fields the request sets (others stay)
 * @property {string} [host]
 * @property {number} [port]
 * @property {string} [username]
 * @property {string} [password]
 * @property {string} [status]
 */

/**
 * Checks an edit body {host?, port?, username?, password?, status?}; every broken rule in one 400.
 * @param {Record<string, unknown>} body
 * @returns {ProxyEdit}
 */
function validateEdit(body) {
  /** @type {ProxyEdit} */
  const edit = {};
  /** @type {[string, string, string][]} */
  const problems = [];
  if (body["host"] !== undefined) {
    edit.host = str(body["host"]).toLowerCase();
    const p = hostProblem(edit.host);
    if (p) problems.push(["host", "validation_invalid_host", p]);
  }
  if (body["port"] !== undefined) {
    edit.port = portOf(body["port"]);
    if (Number.isNaN(edit.port)) problems.push(["port", "validation_invalid_port", "Port must be a whole number from 1 to 65535"]);
  }
  if (body["username"] !== undefined) {
    edit.username = str(body["username"]);
    const p = usernameProblem(edit.username);
    if (p) problems.push(["username", "validation_invalid_username", p]);
  }
  if (body["password"] !== undefined) {
    edit.password = typeof body["password"] === "string" ? body["password"] : "";
    const p = passwordProblem(edit.password);
    if (p) problems.push(["password", "validation_invalid_password", p]);
  }
  if (body["status"] !== undefined) {
    edit.status = str(body["status"]).toUpperCase();
    if (STATUSES.indexOf(edit.status) < 0)
      problems.push(["status", "validation_invalid_status", `Status must be one of ${STATUSES.join(", ")}`]);
  }
  if (problems.length === 0 && Object.keys(edit).length === 0) {
    problems.push(["host", "validation_required", "Nothing to change: send host, port, username, password or status"]);
  }
  throwProblems(problems);
  return edit;
}

/**
 * @param {CoreApp} app
 * @param {string} id
 */
function findProxy(app, id) {
  if (!ID.test(id)) throw new NotFoundError("No proxy with this id.");
  try {
    return app.findRecordById("proxies", id);
  } catch (_) {
    throw new NotFoundError("No proxy with this id.");
  }
}

/**
 * The owner's e-mail ("" without an owner or when the user is gone).
 * @param {CoreApp} app
 * @param {string} userId
 */
function emailOf(app, userId) {
  if (!userId) return "";
  const row = new DynamicModel({ email: "" });
  try {
    app.db().newQuery("SELECT email FROM users WHERE id = {:id}").bind({ id: userId }).one(row);
  } catch (_) {
    return "";
  }
  return row.email;
}

/**
 * Applies an admin edit inside the caller's transaction and describes it for the audit log.
 * Status rules: Assigned comes only from a purchase or renewal (an owned proxy in its term
 * keeps it); Available on an owned proxy releases it from its customer with a new password
 * (unless the edit sets one); Expired is for a customer's proxy (its term ends now);
 * Maintenance is for a proxy without a customer.
 * @param {CoreApp} txApp
 * @param {string} id
 * @param {ProxyEdit} edit
 * @returns {{ record: core.Record, changes: Record<string, unknown> }}
 */
function applyEdit(txApp, id, edit) {
  const record = findProxy(txApp, id);
  const before = {
    host: record.getString("host"),
    port: record.getInt("port"),
    username: record.getString("username"),
    status: record.getString("status"),
    assigned_to_user_id: record.getString("assigned_to_user_id"),
    expires_at: record.getString("expires_at"),
  };
  const owner = before.assigned_to_user_id;
  const after = {
    host: edit.host ?? before.host,
    port: edit.port ?? before.port,
    username: edit.username ?? before.username,
    status: edit.status ?? before.status,
  };

  if (after.status !== before.status) {
    const now = new DateTime();
    if (after.status === "ASSIGNED") {
      const inTerm = owner && before.expires_at && new DateTime(before.expires_at).after(now);
      if (!inTerm) {
        throw fieldError(
          "status",
          owner
            ? "This proxy's term has ended: the customer renews it to make it Assigned again."
            : "A proxy becomes Assigned when a customer buys it; this one has no customer.",
        );
      }
    }
    if (after.status === "EXPIRED" && !owner)
      throw fieldError("status", "Only a customer's proxy can be Expired; this one has no customer.");
    if (after.status === "MAINTENANCE" && owner) {
      throw fieldError("status", "This proxy belongs to a customer: set it Available first (they lose it), then Maintenance.");
    }
    if (after.status === "AVAILABLE" && owner) {
      record.set("assigned_to_user_id", "");
      record.set("expires_at", "");
      record.set("auto_renew", false);
      record.set("expiry_notice_sent_at", "");
      // The former customer's credentials stop working.
      if (edit.password === undefined) edit.password = proxies.newPassword();
    }
    if (after.status === "EXPIRED" && before.expires_at && new DateTime(before.expires_at).after(now)) {
      record.set("expires_at", now);
    }
    record.set("status", after.status);
  }

  if (after.host !== before.host || after.port !== before.port || after.username !== before.username) {
    const clash = new DynamicModel({ id: "" });
    let taken = false;
    try {
      txApp
        .db()
        .newQuery("SELECT id FROM proxies WHERE host = {:host} AND port = {:port} AND username = {:username} AND id != {:id} LIMIT 1")
        .bind({ ...after, id })
        .one(clash);
      taken = true;
    } catch (_) {
      taken = false;
    }
    if (taken) {
      const message = "Another proxy already has this host, port and username";
      throw new BadRequestError(message, {
        host: new ValidationError("validation_not_unique", message),
        port: new ValidationError("validation_not_unique", message),
        username: new ValidationError("validation_not_unique", message),
      });
    }
    record.set("host", after.host);
    record.set("port", after.port);
    record.set("username", after.username);
  }

  /** @type {Record<string, unknown>} */
  const changes = {};
  for (const field of /** @type {const} */ (["host", "port", "username", "status"])) {
    if (after[field] !== before[field]) changes[field] = { from: before[field], to: after[field] };
  }
  if (record.getString("assigned_to_user_id") !== owner) {
    changes["assigned_to_user_id"] = { from: owner, to: "", owner_email: emailOf(txApp, owner) };
  }
  if (edit.password !== undefined) {
    const current = credentials.openPassword(record.getString("password_encrypted"));
    if (edit.password !== current) {
      record.set("password_encrypted", credentials.sealPassword(edit.password));
      changes["password"] = { changed: true };
    }
  }
  if (Object.keys(changes).length > 0) txApp.save(record);
  return { record, changes };
}

/**
 * Deletes a proxy inside the caller's transaction; returns what the audit log keeps of it.
 * @param {CoreApp} txApp
 * @param {string} id
 */
function remove(txApp, id) {
  const record = findProxy(txApp, id);
  const owner = record.getString("assigned_to_user_id");
  const details = {
    host: record.getString("host"),
    port: record.getInt("port"),
    username: record.getString("username"),
    type: record.getString("type"),
    country: record.getString("country"),
    status: record.getString("status"),
    owner: owner ? { id: owner, email: emailOf(txApp, owner) } : null,
  };
  txApp.delete(record);
  return details;
}

// ---- Generate -----------------------------------------------------------------------

/**
 * Checks a place against the reference list; `field` problems are added to `problems`.
 * @param {{ country: string, state: string, city: string }} place
 * @param {[string, string, string][]} problems
 * @param {boolean} countryRequired
 */
function checkPlace(place, problems, countryRequired) {
  const places = locations();
  if (!place.country) {
    if (countryRequired) problems.push(["country", "validation_required", "Country is required"]);
    if (place.state) problems.push(["state", "validation_invalid_state", "Choose a country before a state"]);
    return;
  }
  const country = places[place.country];
  if (!country) {
    problems.push(["country", "validation_invalid_country", `Country must be one of ${Object.keys(places).join(", ")}`]);
    return;
  }
  if (place.state && !country.states[place.state]) {
    problems.push(["state", "validation_invalid_state", `${place.state} is not a state of ${country.name} in the list`]);
    return;
  }
  if (place.city && !place.state) problems.push(["state", "validation_required", "Choose a state before a city"]);
  else if (place.city && (country.states[place.state] ?? []).indexOf(place.city) < 0) {
    problems.push(["city", "validation_invalid_city", `${place.city} is not a city of ${place.state} in the list`]);
  }
}

/**
 * Checks a generate body {type, country, state?, city?, quantity 1-1000}.
 * @param {Record<string, unknown>} body
 */
function validateGenerate(body) {
  const input = {
    type: str(body["type"]).toUpperCase(),
    country: str(body["country"]).toUpperCase(),
    state: str(body["state"]),
    city: str(body["city"]),
    quantity: typeof body["quantity"] === "number" && Number.isSafeInteger(body["quantity"]) ? body["quantity"] : NaN,
  };
  /** @type {[string, string, string][]} */
  const problems = [];
  if (proxies.PROXY_TYPES.indexOf(input.type) < 0) {
    problems.push(["type", "validation_invalid_type", `Proxy type must be one of ${proxies.PROXY_TYPES.join(", ")}`]);
  }
  checkPlace(input, problems, true);
  if (Number.isNaN(input.quantity)) problems.push(["quantity", "validation_invalid_number", "Quantity must be a whole number"]);
  else if (input.quantity < 1) problems.push(["quantity", "validation_min_number", "Quantity must be at least 1"]);
  else if (input.quantity > MAX_GENERATE) problems.push(["quantity", "validation_max_number", "Maximum 1000 proxies per batch"]);
  throwProblems(problems);
  return input;
}

const USER_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** The INSERT every batch uses; a clash with the unique endpoint index inserts nothing. */
const INSERT_PROXY = `INSERT INTO proxies (id, host, port, username, password_encrypted, type, country, state, city, status,
  assigned_to_user_id, expires_at, auto_renew, expiry_notice_sent_at, created, updated)
  VALUES ({:id}, {:host}, {:port}, {:username}, {:password}, {:type}, {:country}, {:state}, {:city}, 'AVAILABLE', '', '', FALSE, '', {:now}, {:now})
  ON CONFLICT DO NOTHING`;

/**
 * Makes `input.quantity` AVAILABLE proxies with random credentials in one transaction
 * (the caller's). Host: the type's gateway for the country; port and username random; a
 * rare clash with an existing endpoint is drawn again.
 * @param {CoreApp} txApp
 * @param {ReturnType<typeof validateGenerate>} input
 * @returns {string[]} the new ids
 */
function generate(txApp, input) {
  const host = `${input.country.toLowerCase()}.${input.type.toLowerCase()}.proxyshop.net`;
  const prefix = input.type.slice(0, 3).toLowerCase();
  const now = new DateTime().string();
  /** @type {string[]} */
  const ids = [];
  const seal = credentials.sealer();
  const query = txApp.db().newQuery(INSERT_PROXY).prepare();
  try {
    insertGenerated(query, input, host, prefix, now, ids, seal);
  } finally {
    query.close();
  }
  return ids;
}

/**
 * @param {dbx.Query} query  the prepared INSERT_PROXY
 * @param {ReturnType<typeof validateGenerate>} input
 * @param {string} host
 * @param {string} prefix
 * @param {string} now
 * @param {string[]} ids  filled with the new ids
 * @param {(plain: string) => string} seal
 */
function insertGenerated(query, input, host, prefix, now, ids, seal) {
  for (let attempts = 0; ids.length < input.quantity; attempts++) {
    if (attempts > input.quantity * 3 + 10) throw new InternalServerError("Could not find free endpoints for the batch; try again.");
    const id = sql.newId();
    const inserted = query
      .bind({
        id,
        host,
        port: 10000 + Math.floor(Math.random() * 50000),
        username: `${prefix}_${input.country.toLowerCase()}_${$security.randomStringWithAlphabet(12, USER_ALPHABET)}`,
        password: seal(proxies.newPassword()),
        type: input.type,
        country: input.country,
        state: input.state,
        city: input.city,
        now,
      })
      .execute()
      .rowsAffected();
    if (inserted === 1) ids.push(id);
  }
}

// ---- Import -------------------------------------------------------------------------

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
    type: str(body["type"]).toUpperCase() || IMPORT_DEFAULT_TYPE,
    country: str(body["country"]) || IMPORT_DEFAULT_COUNTRY,
    state: str(body["state"]),
    city: str(body["city"]),
  };
  /** @type {[string, string, string][]} */
  const problems = [];
  if (!text.trim()) problems.push(["text", "validation_required", "Paste or upload host:port:username:password lines to import"]);
  else if (text.length > MAX_IMPORT_CHARS) problems.push(["text", "validation_max_size", "The import is too large: at most 10,000 lines"]);
  if (proxies.PROXY_TYPES.indexOf(batch.type) < 0) {
    problems.push(["type", "validation_invalid_type", `Proxy type must be one of ${proxies.PROXY_TYPES.join(", ")}`]);
  }
  if (batch.country === IMPORT_DEFAULT_COUNTRY) {
    if (batch.state || batch.city) problems.push(["state", "validation_invalid_state", "Choose a country before a state"]);
  } else {
    batch.country = batch.country.toUpperCase();
    checkPlace(batch, problems, false);
  }
  throwProblems(problems);

  const lines = text.split(/\r\n|\n|\r/);
  while (lines.length > 0 && !(lines[lines.length - 1] ?? "").trim()) lines.pop();
  const counted = lines.filter((l) => l.trim()).length;
  if (counted > MAX_IMPORT_LINES) {
    throw fieldError(
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
    const parts = trimmed.split(":").map((p) => p.trim());
    if (parts.length !== 4 || parts.some((p) => !p)) return skip("Malformed: expected host:port:username:password");
    const host = (parts[0] ?? "").toLowerCase();
    const username = parts[2] ?? "";
    const password = parts[3] ?? "";
    const port = portOf(parts[1]);
    if (Number.isNaN(port)) return skip("Bad port: must be a whole number from 1 to 65535");
    const problem = hostProblem(host) || usernameProblem(username) || passwordProblem(password);
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

// ---- Records-API writes (proxies.pb.js, security review #13 finding 6) ----------------

/** The fields only the server writes: purchases, renewals, refunds, expiry, console routes. */
const SERVER_FIELDS = ["assigned_to_user_id", "status", "expires_at", "auto_renew", "expiry_notice_sent_at"];
const SERVER_FIELDS_MESSAGE =
  "A proxy's owner, status, expiry and auto-renewal cannot be set through the records API: change them in the console's Proxy Management (PATCH /api/admin/proxies/{id}), which audits every change.";

/**
 * A proxy created through the records API starts Available, with no owner, expiry,
 * auto-renewal or expiry notice (403 otherwise).
 * @param {core.Record} record
 */
function assertServerFieldsOnCreate(record) {
  const clean =
    record.getString("status") === "AVAILABLE" &&
    record.getString("assigned_to_user_id") === "" &&
    record.getString("expires_at") === "" &&
    !record.getBool("auto_renew") &&
    record.getString("expiry_notice_sent_at") === "";
  if (!clean) {
    throw new ForbiddenError(
      "A new proxy starts Available, with no owner, expiry or auto-renewal: customers get proxies by buying them, and admins change a proxy's status in the console's Proxy Management.",
    );
  }
}

/**
 * A records-API update leaves the server's fields as they are (403 naming the first one changed).
 * @param {core.Record} record
 */
function assertServerFieldsUnchanged(record) {
  const stored = record.original();
  for (const field of SERVER_FIELDS) {
    if (String(record.get(field)) !== String(stored.get(field))) {
      throw new ForbiddenError(SERVER_FIELDS_MESSAGE, { [field]: new ValidationError("server_field", SERVER_FIELDS_MESSAGE) });
    }
  }
}

module.exports = {
  SERVER_FIELDS,
  assertServerFieldsOnCreate,
  assertServerFieldsUnchanged,
  STATUSES,
  MAX_GENERATE,
  MAX_IMPORT_LINES,
  locations,
  listFilters,
  list,
  stats,
  detail,
  validateEdit,
  applyEdit,
  remove,
  validateGenerate,
  generate,
  parseImport,
  insertImport,
};
