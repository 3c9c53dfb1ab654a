// @ts-check
// Reading the audit log (the console's Audit Logs, get_admin_audit_logs in the spec): a
// page of entries, newest first, with their admin's e-mail and names, searched and
// filtered in SQL, and the summary cards. Shop admins only: anonymous 401, customers 403.
// Rows are written only by lib/core/audit.js and never change.

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

const DAY_MS = 86400000;

/** A person's full name in SQL, from the users row aliased `u`. */
const fullName = (/** @type {string} */ u) => `TRIM(COALESCE(${u}.first_name, '') || ' ' || COALESCE(${u}.last_name, ''))`;

/**
 * How each kind of target reads: `label` (SQL) is what a sentence names (a user's e-mail,
 * a proxy's username (unique; host:port is the gateway's, shared), a plan's name, a ticket's
 * subject, a setting's key ...), `name` (SQL) a person's name beside it. Each kind joins its
 * row as `alias` only for entries of its target_type (found: that row's id is not null),
 * and `also` the rows its label or name come from.
 * @type {Record<string, {alias: string, label: string, name?: string, also?: string}>}
 */
const TARGETS = {
  users: { alias: "tu", label: "tu.email", name: fullName("tu") },
  pricing_plans: { alias: "tp", label: "tp.name" },
  proxies: { alias: "tx", label: "tx.username" },
  settings: { alias: "ts", label: "ts.key" },
  support_tickets: { alias: "tt", label: "tt.subject" },
  chat_messages: { alias: "tm", label: "tmt.subject", also: "LEFT JOIN support_tickets tmt ON tmt.id = tm.ticket_id" },
  contact_messages: { alias: "tc", label: "tc.subject", name: "tc.name || ' <' || tc.email || '>'" },
  proxy_orders: {
    alias: "tor",
    label: "'Order #' || UPPER(SUBSTR(tor.id, 1, 8))",
    name: "toru.email",
    also: "LEFT JOIN users toru ON toru.id = tor.user_id",
  },
  referrals: { alias: "tr", label: "tru.email", name: fullName("tru"), also: "LEFT JOIN users tru ON tru.id = tr.referred_user_id" },
  admin_invitations: { alias: "ti", label: "ti.email" },
  gateway_tokens: { alias: "tg", label: "tg.name" },
};

/** @param {(t: (typeof TARGETS)[string]) => string | undefined} part */
function targetCase(part) {
  const whens = Object.entries(TARGETS)
    .filter(([, t]) => part(t))
    .map(([type, t]) => `WHEN '${type}' THEN ${part(t)}`)
    .join(" ");
  return `CASE l.target_type ${whens} END`;
}

const TARGET_JOINS = Object.entries(TARGETS)
  .map(([type, t]) => `LEFT JOIN ${type} ${t.alias} ON l.target_type = '${type}' AND ${t.alias}.id = l.target_id ${t.also ?? ""}`)
  .join("\n");
const TARGET_COLUMNS = [
  `COALESCE(${targetCase((t) => t.label)}, '') AS target_label`,
  `COALESCE(${targetCase((t) => t.name)}, '') AS target_name`,
  `(${targetCase((t) => `${t.alias}.id`)}) IS NOT NULL AS target_found`,
].join(", ");

/**
 * @typedef {object} AuditQuery
 * @property {string} search  matches the action, target type and id, the details' text, the
 *   admin's and a target user's e-mail, first, last or full name (case-insensitive for ASCII)
 * @property {string} action  exact action name ("" for all)
 * @property {number} page
 * @property {number} perPage
 * @property {number} offset
 */

/**
 * @param {CoreApp} app
 * @param {AuditQuery} query
 */
function listEntries(app, query) {
  const { where, params } = sql.listFilters(query, { "l.action": ["action", query.action] });
  if (query.search) {
    params["q"] = sql.containsPattern(query.search);
    // The admins whose e-mail or names match, found first among the few who ever acted
    // (not a scan of every user per entry).
    const admins = sql.rowsLike({ id: "" });
    app
      .db()
      .newQuery(
        `SELECT id FROM users WHERE id IN (SELECT DISTINCT admin_id FROM audit_logs WHERE admin_id != '')
           AND (${sql.personMatches("", "q")})`,
      )
      .bind({ q: params["q"] })
      .all(admins);
    /** @type {string[]} */
    const matches = [
      "l.action LIKE {:q} ESCAPE '\\'",
      "l.target_type LIKE {:q} ESCAPE '\\'",
      "l.target_id LIKE {:q} ESCAPE '\\'",
      "l.details LIKE {:q} ESCAPE '\\'",
      // A user the entry is about, by the e-mail or name the page shows for its target.
      `(l.target_type = 'users' AND l.target_id IN (SELECT id FROM users WHERE ${sql.personMatches("", "q")}))`,
    ];
    if (admins.length > 0) {
      const byAdmin = sql.inList(
        "l.admin_id",
        admins.map((a) => a.id),
      );
      matches.push(byAdmin.sql);
      Object.assign(params, byAdmin.params);
    }
    where.push(`(${matches.join(" OR ")})`);
  }
  const whereSql = sql.whereSql(where);
  // With a search, "+l.created" makes SQLite read the table once and keep the newest rows
  // (a bounded top-N sort) instead of walking the created index row by row, which costs a
  // random read per entry when few match (measured at 100,000 entries: 50 ms against 600 ms).

  const count = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM audit_logs l ${whereSql}`).bind(params).one(count);

  const rows = sql.rowsLike({
    id: "",
    action: "",
    target_type: "",
    target_id: "",
    details: "",
    created: "",
    admin_id: "",
    ...sql.personShape("admin"),
    target_label: "",
    target_name: "",
    target_found: false,
  });
  // The page's rows first (the inner query), then one LEFT JOIN per kind of target for
  // those rows only: the target's display is read in this one query, not per entry.
  app
    .db()
    .newQuery(
      `SELECT l.id, l.action, l.target_type, l.target_id, COALESCE(l.details, '') AS details, l.created, l.admin_id,
              ${sql.personColumns("u", "admin")}, ${TARGET_COLUMNS}
       FROM (SELECT * FROM audit_logs l ${whereSql}
             ORDER BY ${query.search ? "+l.created" : "l.created"} DESC, l.id DESC LIMIT {:limit} OFFSET {:offset}) l
       LEFT JOIN users u ON u.id = l.admin_id
       ${TARGET_JOINS}
       ORDER BY l.created DESC, l.id DESC`,
    )
    .bind(params)
    .all(rows);

  return admin.listPage(
    rows.map(({ target_found, ...row }) => ({
      ...row,
      details: parseDetails(row.details),
      target_deleted: row.target_id !== "" && row.target_type in TARGETS && !target_found,
    })),
    count.n,
    query,
  );
}

/**
 * The stored JSON details as a value (null when empty or unreadable).
 * @param {string} text
 * @returns {unknown}
 */
function parseDetails(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (_) {
    return text;
  }
}

/**
 * The summary cards: entries today (UTC day) and in the last 7 days, the admins who acted
 * in the last 7 days, and every action name (for the filter).
 * @param {CoreApp} app
 * @param {number} [nowMs]
 */
function summarize(app, nowMs = Date.now()) {
  const todayStart = `${new Date(nowMs).toISOString().slice(0, 10)} 00:00:00.000Z`;
  const weekStart = sql.dbDate(nowMs - 7 * DAY_MS);
  const counts = new DynamicModel({ today: 0, this_week: 0, active_admins: 0 });
  app
    .db()
    .newQuery(
      `SELECT
         (SELECT COUNT(*) FROM audit_logs WHERE created >= {:todayStart}) AS today,
         (SELECT COUNT(*) FROM audit_logs WHERE created >= {:weekStart}) AS this_week,
         (SELECT COUNT(DISTINCT admin_id) FROM audit_logs WHERE created >= {:weekStart} AND admin_id != '') AS active_admins`,
    )
    .bind({ todayStart, weekStart })
    .one(counts);
  const actions = sql.rowsLike({ action: "" });
  app.db().newQuery("SELECT DISTINCT action FROM audit_logs ORDER BY action").all(actions);
  return {
    today: counts.today,
    this_week: counts.this_week,
    active_admins: counts.active_admins,
    // The gateway's uptime over the same 7 days (lib/reports/performance.js), null without reports.
    uptime_percent: require(`${__hooks}/lib/reports/performance.js`).uptimeSince(app, nowMs - 7 * DAY_MS, nowMs).uptime_percent,
    actions: actions.map((row) => row.action),
  };
}

/**
 * GET /api/admin/audit-logs?search=&action=&page=&perPage= (perPage default 20, at most 100)
 * -> {items: [{id, action, target_type, target_id, details, created, admin_id, admin_email,
 *    admin_first_name, admin_last_name}], page, perPage, totalItems, totalPages}
 *
 * Newest first. search (at most 200 characters) matches the action, target type and id,
 * the details' JSON text, and the admin's or a target user's e-mail, first, last or full name; action is
 * exact. An entry whose admin account was deleted answers admin_id "" and empty names.
 * @param {core.RequestEvent} e
 */
function list(e) {
  admin.requireAdmin(e);
  const search = admin.searchParam(e);
  const action = String(e.request?.url?.query().get("action") ?? "").trim();
  return e.json(200, listEntries(e.app, { search, action, ...admin.paging(e, 100) }));
}

/**
 * GET /api/admin/audit-logs/summary
 * -> {today (entries since 00:00 UTC), this_week (entries in the last 7 days),
 *    active_admins (distinct admins with an entry in the last 7 days), uptime_percent (the
 *    gateways' uptime over the last 7 days, null without reports), actions: [every action name, sorted]}
 * @param {core.RequestEvent} e
 */
function summary(e) {
  admin.requireAdmin(e);
  return e.json(200, summarize(e.app));
}

module.exports = { list, summary };
