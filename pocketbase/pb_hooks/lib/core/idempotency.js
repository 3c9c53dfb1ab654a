// @ts-check
// Idempotency-Key handling for every money route: purchase, renewal, checkout, refund,
// balance adjustment and payout. The key is stored on what the request made, with a hash
// of the request, in the same database transaction; all writes go through one connection,
// so any number of concurrent retries of one key do the work once: the first commits its
// row with the key, every later one finds it and answers it again. Keys live as long as
// their row (so at least the promised 24 hours). A refused request stores nothing and can
// be retried with its key.
//
// One rule for all of them: a key used before for this very request answers what that
// request made (the route rebuilds its answer from the row, as it answered the first time);
// a key used before for anything else is refused (422) with one message naming the route's
// noun.

/** @type {typeof import("./sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/**
 * @typedef {object} KeyStore  where one kind of request keeps its key
 * @property {string} scope  kinds of one scope share their keys (a key is used once in it)
 * @property {string} collection
 * @property {string} owner  the column of the key's owner ("" when the key column carries it)
 * @property {string} key  the key column
 * @property {string} hash  the request-hash column, or an SQL expression answering the
 *   request's input as JSON (its hash is then computed here) where the row has no hash column
 * @property {boolean} [hashed]  false when `hash` answers the input, not its hash
 * @property {string} noun  "Use a new key for a new <noun>"
 */

/** @type {Record<string, KeyStore>} */
const STORES = {
  // A customer's key is used once across their orders and credit payments.
  proxy_orders: {
    scope: "customer",
    collection: "proxy_orders",
    owner: "user_id",
    key: "idempotency_key",
    hash: "request_hash",
    noun: "purchase",
  },
  payments: { scope: "customer", collection: "payments", owner: "user_id", key: "idempotency_key", hash: "request_hash", noun: "purchase" },
  // The developer API's other changes (lib/core/changes.js), in the same key space.
  api_changes: {
    scope: "customer",
    collection: "api_idempotency",
    owner: "user",
    key: "idempotency_key",
    hash: "request_hash",
    noun: "change",
  },
  refunds: {
    scope: "refunds",
    collection: "proxy_orders",
    owner: "refunded_by",
    key: "refund_idempotency_key",
    hash: "refund_request_hash",
    noun: "refund",
  },
  payouts: {
    scope: "payouts",
    collection: "referral_payouts",
    owner: "admin_id",
    key: "idempotency_key",
    hash: "request_hash",
    noun: "payout",
  },
  // The ledger row's reference carries the admin and the key (ledgerReference); the
  // request is the row itself.
  adjustments: {
    scope: "adjustments",
    collection: "transactions",
    owner: "",
    key: "reference",
    hash: "json_object('user_id', user_id, 'type', type, 'amount_cents', amount_cents, 'description', description)",
    hashed: false,
    noun: "adjustment",
  },
};

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
 * The ledger reference an admin's adjustment key is stored as: fixed length whatever the
 * key, and the admin's own (two admins' keys never meet).
 * @param {string} ownerId
 * @param {string} key
 */
function ledgerReference(ownerId, key) {
  return `adjustment:${$security.sha256(`${ownerId}\n${key}`)}`;
}

/**
 * The value the key column holds for this owner's key.
 * @param {KeyStore} store
 * @param {string} ownerId
 * @param {string} key
 */
function storedKey(store, ownerId, key) {
  return store.owner ? key : ledgerReference(ownerId, key);
}

/**
 * The refusal of a key used before for another request.
 * @param {string} noun
 */
function keyReused(noun) {
  return new ApiError(
    422,
    `This Idempotency-Key was already used for a different request. Use a new key for a new ${noun}; reuse a key only to retry the same one.`,
    { idempotency_key: new ValidationError("idempotency_key_reused", "Key already used for a different request") },
  );
}

/**
 * What an earlier request with this owner's key made, inside the caller's transaction: the
 * id of the row when the key was used for this very request, null when the key is new. A
 * key used for another request (another body, another route) is refused with a 422.
 * @param {CoreApp} txApp
 * @param {{ ownerId: string, key: string, route: string, hash: string, kind: string }} request
 * @returns {string | null}
 */
function earlierResult(txApp, request) {
  const store = STORES[request.kind];
  if (!store) throw new Error(`no idempotency store "${request.kind}"`);
  const kinds = Object.keys(STORES).filter((k) => STORES[k]?.scope === store.scope);
  /** @type {Record<string, string>} */
  const params = { owner: request.ownerId };
  for (const kind of kinds) params[kind] = storedKey(/** @type {KeyStore} */ (STORES[kind]), request.ownerId, request.key);
  const rows = sql.rowsLike({ kind: "", id: "", hash: "" });
  txApp
    .db()
    .newQuery(
      kinds
        .map((kind) => {
          const s = /** @type {KeyStore} */ (STORES[kind]);
          const owner = s.owner ? `${s.owner} = {:owner} AND ` : "";
          return `SELECT '${kind}' AS kind, id, ${s.hash} AS hash FROM ${s.collection} WHERE ${owner}${s.key} = {:${kind}} AND ${s.key} != ''`;
        })
        .join(" UNION ALL ") + " LIMIT 1",
    )
    .bind(params)
    .all(rows);
  const row = rows[0];
  if (!row) return null;
  const hash = STORES[row.kind]?.hashed === false ? requestHash(request.route, JSON.parse(row.hash || "null")) : row.hash;
  if (row.kind !== request.kind || hash !== request.hash) throw keyReused(store.noun);
  return row.id;
}

/**
 * Runs `work` in one transaction behind the owner's key: when the key already made this
 * very request's row, `work` does not run and the earlier row's id is answered instead.
 * `work` writes `keyed.key` in the store's key column (`keyed.stored` for the ledger's
 * reference) and `keyed.hash` in its hash column.
 * @template T
 * @param {CoreApp} app
 * @param {{ userId: string, key: string, route: string, input: unknown, collection: string, kind?: string }} request
 *   userId: the key's owner (the customer, or the admin for console routes); kind: the
 *   STORES entry, the collection when absent
 * @param {(txApp: CoreApp, keyed: { key: string, hash: string, stored: string }) => T} work
 * @returns {{ earlier: string | null, result: T | undefined }}
 */
function once(app, request, work) {
  const kind = request.kind ?? request.collection;
  const hash = requestHash(request.route, request.input);
  const store = /** @type {KeyStore} */ (STORES[kind]);
  /** @type {string | null} */
  let earlier = null;
  /** @type {T | undefined} */
  let result;
  app.runInTransaction((txApp) => {
    earlier = earlierResult(txApp, { ownerId: request.userId, key: request.key, route: request.route, hash, kind });
    if (!earlier) result = work(txApp, { key: request.key, hash, stored: storedKey(store, request.userId, request.key) });
  });
  return { earlier, result };
}

/**
 * A money route's answer behind the key: `work` once (it answers the id of the row it
 * made), then `view` of that row, the same for the first request and for a replay (header
 * Idempotent-Replayed: true).
 * @param {core.RequestEvent} e
 * @param {{ userId: string, key: string, route: string, input: unknown, collection: string, kind?: string }} request
 * @param {(txApp: CoreApp, keyed: { key: string, hash: string, stored: string }) => string} work
 * @param {(app: CoreApp, id: string) => unknown} view
 */
function answerOnce(e, request, work, view) {
  const { earlier, result } = once(e.app, request, work);
  e.response.header().set("Idempotent-Replayed", String(!!earlier));
  return e.json(200, view(e.app, earlier ?? result ?? ""));
}

module.exports = { once, answerOnce, requestHash };
