// @ts-check
// Idempotency-Key handling for the money routes. The key is stored on what the request
// made (the proxy order, the payment), with a hash of the request, in the same database
// transaction; all writes go through one connection, so any number of concurrent retries
// of one key do the work once: the first commits the order with its key, every later one
// finds it and answers it again. Keys live as long as their order or payment (so at least
// the promised 24 hours). A refused request stores nothing and can be retried with its key.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** The collections that carry idempotency_key and request_hash, each unique per user. */
const KEYED_COLLECTIONS = ["proxy_orders", "payments"];

/**
 * A stable text form of a JSON value (object keys sorted), for hashing request bodies.
 * @param {unknown} value
 * @returns {string}
 */
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const obj = /** @type {Record<string, unknown>} */ (value);
    return `{${Object.keys(obj)
      .sort()
      .filter((k) => obj[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The hash a request is remembered by: its route and its normalised input.
 * @param {string} route  e.g. "POST /api/v1/proxies/purchase"
 * @param {unknown} input
 */
function requestHash(route, input) {
  return $security.sha256(`${route}\n${canonicalJson(input)}`);
}

/**
 * What an earlier request with this user's key made, inside the caller's transaction:
 * the id of the row in `collection` when the key was used for this very request, null
 * when the key is new. A key used for another request (another body, another route) is
 * refused with a 422.
 * @param {CoreApp} txApp
 * @param {{ userId: string, key: string, hash: string, collection: string }} request
 * @returns {string | null}
 */
function earlierResult(txApp, request) {
  const rows = sql.rowsLike({ collection: "", id: "", request_hash: "" });
  txApp
    .db()
    .newQuery(
      KEYED_COLLECTIONS.map(
        (c) => `SELECT '${c}' AS collection, id, request_hash FROM ${c} WHERE user_id = {:userId} AND idempotency_key = {:key}`,
      ).join(" UNION ALL ") + " LIMIT 1",
    )
    .bind({ userId: request.userId, key: request.key })
    .all(rows);
  for (const row of rows) {
    if (row.collection !== request.collection || row.request_hash !== request.hash) {
      throw new ApiError(
        422,
        "This Idempotency-Key was already used for a different request. Use a new key for a new purchase; reuse a key only to retry the same request.",
        { idempotency_key: new ValidationError("idempotency_key_reused", "Key already used for a different request") },
      );
    }
    return row.id;
  }
  return null;
}

/**
 * Runs `work` in one transaction behind the user's key: when the key already made this very
 * request's row, `work` does not run and the earlier row's id is answered instead.
 * @template T
 * @param {CoreApp} app
 * @param {{ userId: string, key: string, route: string, input: unknown, collection: string }} request
 * @param {(txApp: CoreApp, idempotency: { key: string, hash: string }) => T} work
 * @returns {{ earlier: string | null, result: T | undefined }}
 */
function once(app, request, work) {
  const hash = requestHash(request.route, request.input);
  /** @type {string | null} */
  let earlier = null;
  /** @type {T | undefined} */
  let result;
  app.runInTransaction((txApp) => {
    earlier = earlierResult(txApp, { userId: request.userId, key: request.key, hash, collection: request.collection });
    if (!earlier) result = work(txApp, { key: request.key, hash });
  });
  return { earlier, result };
}

module.exports = { once };
