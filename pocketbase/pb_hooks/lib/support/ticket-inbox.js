// @ts-check
// The console's ticket inbox (get_admin_support_tickets in the spec): tickets with their
// customer's e-mail and name, newest activity first, searched and filtered in SQL so a
// page stays fast at 100,000 tickets (indexes: support_tickets (last_message_at),
// (status, last_message_at)). Everything else the console does on tickets and contact
// messages goes through the records API, audited by audit.pb.js:
//   - status change: PATCH /api/collections/support_tickets/records/{id} {status}
//   - staff reply:   POST  /api/collections/chat_messages/records {ticket_id, sender_id, message, attachments?}
//                    (is_admin_message forced by messages.js; refused in demo mode)
//   - contact read/unread: PATCH /api/collections/contact_messages/records/{id} {read_at: "now" | ""}

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

const STATUSES = ["open", "pending", "closed"];
/** Most pressing first: the order of sort=priority (issue #28, 17). */
const PRIORITIES = ["urgent", "high", "medium", "low"];
const SORTS = ["activity", "priority"];

/** Priority as a rank for ORDER BY: urgent 0 ... low 3. */
const PRIORITY_RANK = `CASE t.priority ${PRIORITIES.map((p, i) => `WHEN '${p}' THEN ${i}`).join(" ")} ELSE ${PRIORITIES.length} END`;

/** The longest search text taken (longer input is cut). */
const MAX_SEARCH = 100;

const COLUMNS = `t.id AS id, t.subject AS subject, t.status AS status, t.priority AS priority,
  t.created AS created, t.updated AS updated, t.last_message_at AS last_message_at,
  t.awaiting_reply AS awaiting_reply, t.user_id AS user_id, ${sql.personColumns("u", "user")}`;

const ROW = {
  id: "",
  subject: "",
  status: "",
  priority: "",
  created: "",
  updated: "",
  last_message_at: "",
  awaiting_reply: false,
  user_id: "",
  ...sql.personShape("user"),
};

/** @typedef {typeof ROW} TicketRow */

/**
 * One query value that must be one of `allowed` (or "" for none), else 400 with `message`.
 * @param {core.RequestEvent} e
 * @param {string} name
 * @param {string[]} allowed
 * @param {string} message
 */
function oneOf(e, name, allowed, message) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const value = api.queryParam(e, name);
  if (value !== "" && allowed.indexOf(value) < 0) throw api.fieldError(name, message, "validation_invalid_value");
  return value;
}

/**
 * Reads and checks the list's filters: status one of open, pending, closed, priority one of
 * low, medium, high, urgent (each "" for all), sort "activity" (the default) or "priority",
 * the search text trimmed.
 * @param {core.RequestEvent} e
 * @returns {{status: string, priority: string, sort: string, q: string}}
 */
function listFilters(e) {
  const status = oneOf(e, "status", STATUSES, "Status must be open, pending or closed.");
  const priority = oneOf(e, "priority", PRIORITIES, "Priority must be low, medium, high or urgent.");
  const sort = oneOf(e, "sort", SORTS, "Sort must be activity or priority.") || "activity";
  const q = (e.request?.url?.query().get("q") ?? "").trim().slice(0, MAX_SEARCH);
  return { status, priority, sort, q };
}

/**
 * One page of tickets, newest activity first (most pressing priority first, then newest
 * activity, with sort=priority; ties by id), with the totals of the whole
 * result and the inbox's counts per status.
 * @param {CoreApp} app
 * @param {{status: string, priority: string, sort: string, q: string}} filters
 * @param {{page: number, perPage: number, offset: number}} paging
 */
function listTickets(app, filters, paging) {
  const { where, params } = sql.listFilters(paging, {
    "t.status": ["status", filters.status],
    "t.priority": ["priority", filters.priority],
  });
  if (filters.q) {
    // Subject, the ticket's number, or the customer's e-mail, first, last or full name (the
    // matching customers are found once, not joined for every ticket).
    where.push(
      `(t.subject LIKE {:like} ESCAPE '\\' OR t.id LIKE {:prefix} ESCAPE '\\'
        OR t.user_id IN (SELECT id FROM users WHERE ${sql.personMatches("", "like")}))`,
    );
    params["like"] = sql.containsPattern(filters.q);
    params["prefix"] = `${sql.likeEscape(filters.q.replace(/^#/, "").toLowerCase())}%`;
  }
  const whereSql = sql.whereSql(where);

  const total = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM support_tickets t ${whereSql}`).bind(params).one(total);

  const rows = sql.rowsLike(ROW);
  if (total.n > paging.offset) {
    app
      .db()
      .newQuery(
        `SELECT ${COLUMNS} FROM support_tickets t LEFT JOIN users u ON u.id = t.user_id ${whereSql}
         ORDER BY ${filters.sort === "priority" ? `${PRIORITY_RANK}, ` : ""}t.last_message_at DESC, t.id DESC
         LIMIT {:limit} OFFSET {:offset}`,
      )
      .bind(params)
      .all(rows);
  }

  return { ...admin.listPage(rows.map(plainRow), total.n, paging), counts: statusCounts(app) };
}

/**
 * Tickets per status and how many await a staff reply (not closed), over the whole inbox.
 * @param {CoreApp} app
 * @returns {{all: number, open: number, pending: number, closed: number, awaiting_reply: number}}
 */
function statusCounts(app) {
  const rows = sql.rowsLike({ status: "", n: 0, awaiting: 0 });
  app
    .db()
    .newQuery(
      "SELECT status, COUNT(*) AS n, COALESCE(SUM(CASE WHEN awaiting_reply AND status != 'closed' THEN 1 ELSE 0 END), 0) AS awaiting FROM support_tickets GROUP BY status",
    )
    .all(rows);
  const counts = { all: 0, open: 0, pending: 0, closed: 0, awaiting_reply: 0 };
  for (const row of rows) {
    counts.all += row.n;
    counts.awaiting_reply += row.awaiting;
    if (row.status === "open" || row.status === "pending" || row.status === "closed") counts[row.status] = row.n;
  }
  return counts;
}

/**
 * One ticket with its customer, or 404.
 * @param {CoreApp} app
 * @param {string} id
 */
function getTicket(app, id) {
  const query = `SELECT ${COLUMNS} FROM support_tickets t LEFT JOIN users u ON u.id = t.user_id WHERE t.id = {:id} LIMIT 1`;
  return plainRow(sql.oneRowOr404(app, sql.rowsLike(ROW), query, { id }, "Ticket not found."));
}

/**
 * A row as plain JSON (DynamicModel rows serialize their fields, but a copy is explicit).
 * @param {TicketRow} row
 * @returns {TicketRow}
 */
function plainRow(row) {
  return {
    id: row.id,
    subject: row.subject,
    status: row.status,
    priority: row.priority,
    created: row.created,
    updated: row.updated,
    last_message_at: row.last_message_at,
    awaiting_reply: !!row.awaiting_reply,
    user_id: row.user_id,
    user_email: row.user_email,
    user_first_name: row.user_first_name,
    user_last_name: row.user_last_name,
  };
}

/**
 * GET /api/admin/support/tickets?q=&status=&priority=&sort=&page=&perPage=
 *   q: searched in the subject, the customer's e-mail, first, last and full name, and the
 *   ticket number (id prefix); status: "", open, pending or closed; priority: "", low,
 *   medium, high or urgent; sort: activity (default) or priority (urgent first, then newest
 *   activity); perPage 1-100 (20).
 * -> {items: [{id, subject, status, priority, created, updated, last_message_at,
 *    awaiting_reply, user_id, user_email, user_first_name, user_last_name}], page, perPage,
 *    totalItems, totalPages, counts: {all, open, pending, closed, awaiting_reply}}
 *
 * 400 {data.status | data.priority | data.sort} for an unknown value. Shop
 * admins only (anonymous 401, customers 403).
 * @param {core.RequestEvent} e
 */
function list(e) {
  admin.requireAdmin(e);
  return e.json(200, listTickets(e.app, listFilters(e), admin.paging(e, 100)));
}

/**
 * GET /api/admin/support/tickets/{id} -> one item as in the list; 404 "Ticket not found."
 * @param {core.RequestEvent} e
 */
function get(e) {
  admin.requireAdmin(e);
  return e.json(200, getTicket(e.app, e.request?.pathValue("id") ?? ""));
}

module.exports = { list, get };
