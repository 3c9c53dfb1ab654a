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

/** A new record id for a row written by SQL (PocketBase's own shape: 15 lower-case letters and digits). */
function newId() {
  return $security.randomStringWithAlphabet(15, "abcdefghijklmnopqrstuvwxyz0123456789");
}

module.exports = { rowsLike, inList, newId };
