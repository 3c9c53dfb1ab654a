// @ts-check
// Idempotency-Key handling for the money routes. The key's row is looked up and written
// inside the same database transaction as the work it guards, and all writes go through
// one connection, so any number of concurrent retries of one key do the work once: the
// first commits the work and the key together, every later one finds the key.
// Only successful results are remembered: a refused request (no stock, low balance) can
// be retried with the same key once the cause is fixed.

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
 * Runs `work` once per (user, key). Returns what `work` returned the first time, then the
 * same remembered value for every retry with the same route and input; the same key with
 * another route or input is refused (422).
 * @template T
 * @param {CoreApp} app
 * @param {{ userId: string, key: string, route: string, input: unknown }} request
 * @param {(txApp: CoreApp) => T} work  runs inside the transaction; its result must be plain JSON
 * @returns {{ result: T, replayed: boolean }}
 */
function runOnce(app, request, work) {
  const hash = $security.sha256(`${request.route}\n${canonicalJson(request.input)}`);
  /** @type {{ result: T, replayed: boolean } | undefined} */
  let outcome;
  app.runInTransaction((txApp) => {
    const stored = new DynamicModel({ request_hash: "", response: "" });
    let found = true;
    try {
      txApp
        .db()
        .newQuery("SELECT request_hash, response FROM idempotency_keys WHERE user_id = {:userId} AND key = {:key}")
        .bind({ userId: request.userId, key: request.key })
        .one(stored);
    } catch (_) {
      found = false;
    }
    if (found) {
      if (stored.request_hash !== hash) {
        throw new ApiError(
          422,
          "This Idempotency-Key was already used for a different request. Use a new key for a new purchase; reuse a key only to retry the same request.",
          { idempotency_key: new ValidationError("idempotency_key_reused", "Key already used for a different request") },
        );
      }
      outcome = { result: JSON.parse(stored.response), replayed: true };
      return;
    }
    const result = work(txApp);
    const now = new DateTime().string();
    txApp
      .db()
      .newQuery(
        "INSERT INTO idempotency_keys (id, user_id, key, route, request_hash, response, created, updated) VALUES ({:id}, {:userId}, {:key}, {:route}, {:hash}, {:response}, {:now}, {:now})",
      )
      .bind({
        id: $security.randomStringWithAlphabet(15, "abcdefghijklmnopqrstuvwxyz0123456789"),
        userId: request.userId,
        key: request.key,
        route: request.route,
        hash,
        response: JSON.stringify(result),
        now,
      })
      .execute();
    outcome = { result, replayed: false };
  });
  if (!outcome) throw new Error("idempotent transaction did not run");
  return outcome;
}

/** Keys are kept at least 24 hours; the expiry job deletes them after this many days. */
const KEEP_DAYS = 2;

/**
 * Deletes remembered keys older than KEEP_DAYS.
 * @param {CoreApp} app
 */
function pruneKeys(app) {
  const cutoff = new DateTime().addDate(0, 0, -KEEP_DAYS).string();
  app.db().newQuery("DELETE FROM idempotency_keys WHERE created < {:cutoff}").bind({ cutoff }).execute();
}

module.exports = { runOnce, pruneKeys, canonicalJson };
