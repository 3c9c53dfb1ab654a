// @ts-check
// Proxy Management's generate (the spec's generate_proxies_admin): a batch of AVAILABLE
// proxies with random credentials for a place in the reference list, in one SQL
// transaction with its audit row. Generated proxies exit direct from the gateway's machine
// (issue #16). Refused in demo mode.

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../core/sealing.js")} */
const sealing = require(`${__hooks}/lib/core/sealing.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

const MAX_GENERATE = proxies.CATALOG.inventory.max_generate;

/** The INSERT of one proxy; a clash with the unique username index inserts nothing. */
const INSERT_PROXY = `INSERT INTO proxies (id, host, port, username, password_encrypted, type, country, state, city, status,
  assigned_to_user_id, expires_at, auto_renew, expiry_notice_sent_at, exit, bind_address, created, updated)
  VALUES ({:id}, {:host}, {:port}, {:username}, {:password}, {:type}, {:country}, {:state}, {:city}, 'AVAILABLE', '', '', FALSE, '',
    'direct', {:bind}, {:now}, {:now})
  ON CONFLICT DO NOTHING`;

/**
 * @typedef {{ type: string, country: string, state: string, city: string, quantity: number }} GenerateInput
 */

/**
 * Checks a generate body {type, country, state?, city?, quantity 1-MAX_GENERATE}.
 * @param {Record<string, unknown>} body
 * @returns {GenerateInput}
 */
function validateGenerate(body) {
  const input = {
    type: api.text(body["type"]).toUpperCase(),
    country: api.text(body["country"]).toUpperCase(),
    state: api.text(body["state"]),
    city: api.text(body["city"]),
    quantity: typeof body["quantity"] === "number" && Number.isSafeInteger(body["quantity"]) ? body["quantity"] : NaN,
  };
  const problems = proxies.typeProblems(input.type);
  require(`${__hooks}/lib/proxies/places.js`).checkPlace(input, problems, true);
  if (Number.isNaN(input.quantity)) problems.push(["quantity", "validation_invalid_number", "Quantity must be a whole number"]);
  else if (input.quantity < 1) problems.push(["quantity", "validation_min_number", "Quantity must be at least 1"]);
  else if (input.quantity > MAX_GENERATE) {
    problems.push(["quantity", "validation_max_number", proxies.CATALOG.inventory.max_generate_message]);
  }
  proxies.throwProblems(problems);
  return input;
}

/**
 * The local addresses of setting gateway_bind_addresses (comma or newline separated), in
 * order; [] when there are none.
 * @param {CoreApp} app
 * @returns {string[]}
 */
function bindAddresses(app) {
  /** @type {typeof import("../core/settings.js")} */
  const values = require(`${__hooks}/lib/core/settings.js`);
  return (values.settingText(app, "gateway_bind_addresses") ?? "")
    .split(/[\s,]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}

/**
 * Picks the bind address of each new direct proxy: round-robin over `addresses`, starting
 * with the ones the fewest direct proxies use already (so small batches spread too).
 * @param {CoreApp} txApp
 * @param {string[]} addresses
 * @returns {() => string}  the next address ("" when there are none)
 */
function bindPicker(txApp, addresses) {
  if (addresses.length === 0) return () => "";
  const rows = sql.rowsLike({ bind_address: "", n: 0 });
  txApp.db().newQuery("SELECT bind_address, COUNT(*) AS n FROM proxies WHERE exit = 'direct' GROUP BY bind_address").all(rows);
  const used = addresses.map((a) => rows.find((r) => r.bind_address === a)?.n ?? 0);
  return () => {
    let best = 0;
    for (let i = 1; i < used.length; i++) if ((used[i] ?? 0) < (used[best] ?? 0)) best = i;
    used[best] = (used[best] ?? 0) + 1;
    return addresses[best] ?? "";
  };
}

/**
 * Makes `input.quantity` AVAILABLE proxies in the caller's transaction: exit direct from
 * the gateway's machine, bound round-robin to the addresses of gateway_bind_addresses (""
 * when there are none; bindPicker), host and port the gateway's (gateway-endpoint.js), random unique
 * username and password; a rare username clash is drawn again.
 * @param {CoreApp} txApp
 * @param {GenerateInput} input
 * @returns {string[]} the new ids
 */
function generate(txApp, input) {
  const { host, port } = require(`${__hooks}/lib/proxies/gateway-endpoint.js`).gatewayEndpoint(input.type, txApp);
  const nextBind = bindPicker(txApp, bindAddresses(txApp));
  const now = new DateTime().string();
  /** @type {string[]} */
  const ids = [];
  const seal = sealing.sealer();
  const query = txApp.db().newQuery(INSERT_PROXY).prepare();
  let bind = nextBind();
  try {
    for (let attempts = 0; ids.length < input.quantity; attempts++) {
      if (attempts > input.quantity * 3 + 10) throw new InternalServerError("Could not find free usernames for the batch; try again.");
      const id = sql.newId();
      const inserted = query
        .bind({
          id,
          host,
          port,
          username: proxies.newUsername(input.type, input.country),
          password: seal(proxies.newPassword()),
          type: input.type,
          country: input.country,
          state: input.state,
          city: input.city,
          bind,
          now,
        })
        .execute()
        .rowsAffected();
      if (inserted === 1) {
        ids.push(id);
        if (ids.length < input.quantity) bind = nextBind();
      }
    }
  } finally {
    query.close();
  }
  return ids;
}

/**
 * POST /api/admin/proxies/generate  {type, country, state?, city?, quantity 1-1000}
 * -> {generated_count, message: "Successfully generated N proxies", ids}; AVAILABLE, exit
 * direct (bind_address round-robin over gateway_bind_addresses), the gateway's host and
 * port, random unique credentials; place checked against lib/locations.json; one transaction; audit
 * proxies.generate {count, type, country, state, city}.
 * @param {core.RequestEvent} e
 */
function generateRoute(e) {
  admin.requireAdminWrite(e);
  const input = validateGenerate(api.jsonBody(e));
  const ids = admin.auditedChange(e, (txApp) => {
    const made = generate(txApp, input);
    const { type, country, state, city } = input;
    return {
      result: made,
      audit: {
        action: "proxies.generate",
        targetType: "proxies",
        targetId: "",
        details: { count: made.length, type, country, state, city },
      },
    };
  });
  return e.json(200, {
    generated_count: ids.length,
    message: `Successfully generated ${proxies.proxiesLabel(ids.length)}`,
    ids,
  });
}

module.exports = { MAX_GENERATE, validateGenerate, bindAddresses, generate, generateRoute };
