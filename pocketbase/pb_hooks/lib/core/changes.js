// @ts-check
// The Idempotency-Key of the developer API's changes that are not orders or payments
// (rotate, auto-renewal, the IP allowlist, API keys, webhooks), with the purchase route's
// guarantees (lib/core/idempotency.js): the change and the record of its answer commit in
// one transaction, so a retry with the key answers what the first request got
// (Idempotent-Replayed: true) and changes nothing again, and a key used for another request
// is refused (422). The answer is kept sealed (it can hold a new password or key) in
// api_idempotency for two days. Routes that move money require the key; these take it when
// it is sent (a change sent without one simply happens, once per request).

/** @type {typeof import("./api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);

const KEEP_HOURS = 48;

/**
 * Answers a change behind the request's Idempotency-Key: `work` runs once, in a
 * transaction, and its answer (a plain JSON value) is what every retry gets.
 * @template T
 * @param {core.RequestEvent} e
 * @param {{ userId: string, route: string, input: unknown, status?: number }} request
 *   route: e.g. "POST /api/v1/proxies/{id}/rotate"; input: what identifies the request
 *   (path ids and body), hashed
 * @param {(txApp: CoreApp) => T} work
 */
function answerChange(e, request, work) {
  /** @type {typeof import("./idempotency.js")} */
  const idempotency = require(`${__hooks}/lib/core/idempotency.js`);
  /** @type {typeof import("./sealing.js")} */
  const sealing = require(`${__hooks}/lib/core/sealing.js`);
  const status = request.status ?? 200;
  if (!(e.request?.header.get("Idempotency-Key") ?? "").trim()) {
    /** @type {T | undefined} */
    let answer;
    e.app.runInTransaction((txApp) => {
      answer = work(txApp);
    });
    return e.json(status, answer);
  }
  const key = api.idempotencyKey(e);
  const { earlier, result } = idempotency.once(
    e.app,
    { userId: request.userId, key, route: request.route, input: request.input, collection: "api_idempotency", kind: "api_changes" },
    (txApp, keyed) => {
      const answer = work(txApp);
      const now = new DateTime().string();
      txApp
        .db()
        .newQuery(
          `INSERT INTO api_idempotency (id, user, idempotency_key, request_hash, status, response, created, updated)
           VALUES ({:id}, {:user}, {:key}, {:hash}, {:status}, {:response}, {:now}, {:now})`,
        )
        .bind({
          id: require(`${__hooks}/lib/core/sql.js`).newId(),
          user: request.userId,
          key: keyed.key,
          hash: keyed.hash,
          status,
          response: sealing.sealPassword(JSON.stringify(answer)),
          now,
        })
        .execute();
      return answer;
    },
  );
  e.response.header().set("Idempotent-Replayed", String(!!earlier));
  if (earlier) {
    const row = e.app.findRecordById("api_idempotency", earlier);
    return e.json(row.getInt("status"), JSON.parse(sealing.openPassword(row.getString("response"))));
  }
  return e.json(status, result);
}

/**
 * Removes kept answers older than KEEP_HOURS (a job).
 * @param {CoreApp} app
 */
function purgeOld(app) {
  const before = new DateTime().addDate(0, 0, -KEEP_HOURS / 24).string();
  app.db().newQuery("DELETE FROM api_idempotency WHERE created < {:before}").bind({ before }).execute();
}

module.exports = { answerChange, purgeOld };
