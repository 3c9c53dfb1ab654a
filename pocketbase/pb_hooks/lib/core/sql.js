// @ts-check
// Small helpers for the raw SQL the hot paths use (typed rows, IN lists, new ids).

/**
 * An empty row list for `.all()`, typed like `shape` (DynamicModel fills the fields).
 * @template {Record<string, unknown>} T
 * @param {T} shape  field names with a value of the right type ("" text, 0 number, false bool)
 * @returns {T[]}
 */
function rowsLike(shape) {
  return /** @type {T[]} */ (/** @type {unknown} */ (arrayOf(new DynamicModel(shape))));
}

/**
 * A list page's WHERE conditions and their parameters: the page's limit and offset, and an
 * exact match for each filter that is set (`{column: [param, value]}`; "" filters nothing).
 * Callers add their own conditions and parameters, then write whereSql(where).
 * @param {{ perPage: number, offset: number }} page
 * @param {Record<string, [string, string]>} equal
 */
function listFilters(page, equal) {
  /** @type {string[]} */
  const where = [];
  /** @type {Record<string, unknown>} */
  const params = { limit: page.perPage, offset: page.offset };
  for (const [column, [param, value]] of Object.entries(equal)) {
    if (!value) continue;
    where.push(`${column} = {:${param}}`);
    params[param] = value;
  }
  return { where, params };
}

/**
 * "WHERE a AND b ..." for `conditions`, "" for none.
 * @param {string[]} conditions
 */
function whereSql(conditions) {
  return conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
}

/**
 * `column IN ({:in0}, {:in1} ...)` with its parameters, for a non-empty list of values.
 * @param {string} column
 * @param {string[]} values
 * @returns {{ sql: string, params: Record<string, string> }}
 */
function inList(column, values) {
  /** @type {Record<string, string>} */
  const params = {};
  const names = values.map((value, i) => {
    params[`in${i}`] = value;
    return `{:in${i}}`;
  });
  return { sql: `${column} IN (${names.join(", ")})`, params };
}

/**
 * A moment as PocketBase stores dates ("2026-01-02 03:04:05.678Z"), so SQL compares text.
 * @param {number} [ms]  epoch milliseconds (default now)
 */
function dbDate(ms = Date.now()) {
  return new Date(ms).toISOString().replace("T", " ");
}

/** A new record id for a row written by SQL (PocketBase's own shape: 15 lower-case letters and digits). */
function newId() {
  return $security.randomStringWithAlphabet(15, "abcdefghijklmnopqrstuvwxyz0123456789");
}

/**
 * `text` for a LIKE pattern with `\` as the escape character (ESCAPE '\').
 * @param {string} text
 */
function likeEscape(text) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A LIKE pattern matching `text` anywhere, its own % _ and \ taken literally.
 * @param {string} text
 */
function containsPattern(text) {
  return `%${likeEscape(text)}%`;
}

/**
 * SQL true when a person's e-mail, first, last or full name is LIKE the parameter `param`
 * (a containsPattern).
 * @param {string} alias  the users table's alias ("u"), or "" for its bare columns
 * @param {string} param
 */
function personMatches(alias, param) {
  const c = alias ? `${alias}.` : "";
  const like = `LIKE {:${param}} ESCAPE '\\'`;
  return `${c}email ${like} OR ${c}first_name ${like} OR ${c}last_name ${like} OR (${c}first_name || ' ' || ${c}last_name) ${like}`;
}

/**
 * The one row `query` answers (filled into `rows`, from rowsLike), or a 404 with `message`.
 * @template T
 * @param {CoreApp} app
 * @param {T[]} rows
 * @param {string} query
 * @param {Record<string, unknown>} params
 * @param {string} message
 * @returns {T}
 */
function oneRowOr404(app, rows, query, params, message) {
  app
    .db()
    .newQuery(query)
    .bind(params)
    .all(/** @type {any} */ (rows));
  const row = rows[0];
  if (!row) throw new NotFoundError(message);
  return row;
}

/**
 * A person's e-mail, first and last name from the joined users table `alias`, as
 * `<prefix>_email`, `<prefix>_first_name`, `<prefix>_last_name` ("" when no such user).
 * @param {string} alias
 * @param {string} prefix
 */
function personColumns(alias, prefix) {
  return ["email", "first_name", "last_name"].map((f) => `COALESCE(${alias}.${f}, '') AS ${prefix}_${f}`).join(", ");
}

/**
 * The row fields personColumns fills, for rowsLike.
 * @template {string} P
 * @param {P} prefix
 * @returns {{ [K in `${P}_email` | `${P}_first_name` | `${P}_last_name`]: string }}
 */
function personShape(prefix) {
  return /** @type {any} */ ({ [`${prefix}_email`]: "", [`${prefix}_first_name`]: "", [`${prefix}_last_name`]: "" });
}

/**
 * A stored json field holding a list of texts (its raw text: "", "null" or anything but a
 * list = []), without what is not a text.
 * @param {string} stored
 * @returns {string[]}
 */
function textList(stored) {
  /** @type {unknown} */
  let value = null;
  try {
    value = JSON.parse(stored || "null");
  } catch (_) {
    return [];
  }
  return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
}

module.exports = {
  listFilters,
  whereSql,
  textList,
  rowsLike,
  inList,
  dbDate,
  newId,
  likeEscape,
  containsPattern,
  personMatches,
  oneRowOr404,
  personColumns,
  personShape,
};
