// @ts-check
// The console's Overview and User Management reads and changes (console-users.pb.js):
// platform figures, the user list with its role counts, one user's detail and the admin
// flag (balance adjustments: lib/money/adjustments.js). Raw SQL on
// indexes (1764300000_console_users.js), so every read stays fast at 100,000 users.

/** @type {typeof import("../audit/admin.js")} */
const admin = require(`${__hooks}/lib/audit/admin.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** The columns of a user as the console lists it. */
const USER_SELECT = `u.id, u.email, u.first_name, u.last_name, u.country, u.is_admin, u.verified, u.created,
  COALESCE((SELECT b.balance_cents FROM balances b WHERE b.user_id = u.id), 0) AS balance_cents`;

function userRows() {
  return sql.rowsLike({
    id: "",
    email: "",
    first_name: "",
    last_name: "",
    country: "",
    is_admin: false,
    verified: false,
    created: "",
    balance_cents: 0,
  });
}

/** @typedef {ReturnType<typeof userRows>[number]} UserRow */

/**
 * @param {UserRow} row
 */
function userView(row) {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    country: row.country,
    balance_cents: row.balance_cents,
    is_admin: !!row.is_admin,
    verified: !!row.verified,
    created: row.created,
  };
}

/**
 * One user as the list shows it, or a 404.
 * @param {CoreApp} app
 * @param {string} id
 */
function findUser(app, id) {
  const rows = userRows();
  app.db().newQuery(`SELECT ${USER_SELECT} FROM users u WHERE u.id = {:id} LIMIT 1`).bind({ id }).all(rows);
  const row = rows[0];
  if (!row) throw new NotFoundError("No user with this id.");
  return userView(row);
}

/**
 * The Overview figures: users, money received and kept (real, i.e. Stripe, payments minus
 * what Stripe refunded and lost disputes took back; a proxy refund gives credits back, not
 * money, so it does not lower revenue), test payments apart (no money moved), proxies in
 * customers' hands, and the 10 newest ledger rows with their user's e-mail.
 * @param {CoreApp} app
 */
function overview(app) {
  const figures = new DynamicModel({ total_users: 0, total_revenue_cents: 0, test_payments_cents: 0, active_proxies: 0 });
  app
    .db()
    .newQuery(
      `SELECT (SELECT COUNT(*) FROM users) AS total_users,
              (SELECT COALESCE(SUM(MAX(0, amount_cents - COALESCE(refunded_cents, 0) - CASE WHEN dispute_status = 'lost' THEN COALESCE(disputed_cents, 0) ELSE 0 END)), 0) FROM payments
                WHERE provider = 'stripe' AND status IN ('paid', 'partially_refunded', 'refunded', 'disputed')) AS total_revenue_cents,
              (SELECT COALESCE(SUM(amount_cents), 0) FROM payments WHERE provider = 'test' AND status IN ('paid', 'partially_refunded', 'refunded', 'disputed')) AS test_payments_cents,
              (SELECT COUNT(*) FROM proxies WHERE status = 'ASSIGNED') AS active_proxies`,
    )
    .one(figures);
  const recent = sql.rowsLike({ id: "", user_id: "", user_email: "", type: "", amount_cents: 0, description: "", created: "" });
  app
    .db()
    .newQuery(
      `SELECT t.id, t.user_id, COALESCE(u.email, '') AS user_email, t.type, t.amount_cents, t.description, t.created
       FROM transactions t LEFT JOIN users u ON u.id = t.user_id
       ORDER BY t.created DESC, t.id DESC LIMIT 10`,
    )
    .all(recent);
  return {
    total_users: figures.total_users,
    total_revenue_cents: figures.total_revenue_cents,
    test_payments_cents: figures.test_payments_cents,
    active_proxies: figures.active_proxies,
    recent_transactions: recent.map((r) => ({ ...r })),
  };
}

/** The role filter of the user list. */
const ROLES = ["all", "admins", "users"];

/**
 * `text` as a LIKE pattern matching it anywhere (its % and _ taken literally; escape "\").
 * @param {string} text
 */
function containsPattern(text) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The user list: newest first, filtered by search (e-mail, first or last name, any case,
 * anywhere in the text) and role, one page, with the counts of each role for the search.
 * @param {CoreApp} app
 * @param {{ search: string, role: string, page: number, perPage: number, offset: number }} query
 */
function listUsers(app, query) {
  const search = query.search.trim().slice(0, 100);
  const params = { q: containsPattern(search), limit: query.perPage, offset: query.offset };
  const searchSql = search
    ? `(u.email LIKE {:q} ESCAPE '\\' OR u.first_name LIKE {:q} ESCAPE '\\' OR u.last_name LIKE {:q} ESCAPE '\\')`
    : "";

  const counts = new DynamicModel({ all: 0, admins: 0 });
  if (search) {
    app
      .db()
      .newQuery(
        `SELECT COUNT(*) AS "all", COALESCE(SUM(CASE WHEN u.is_admin THEN 1 ELSE 0 END), 0) AS admins FROM users u WHERE ${searchSql}`,
      )
      .bind(params)
      .one(counts);
  } else {
    // Two index-only counts (idx_users_is_admin) instead of a scan.
    app
      .db()
      .newQuery(`SELECT (SELECT COUNT(*) FROM users) AS "all", (SELECT COUNT(*) FROM users WHERE is_admin = TRUE) AS admins`)
      .one(counts);
  }

  const where = [searchSql];
  if (query.role === "admins") where.push("u.is_admin = TRUE");
  if (query.role === "users") where.push("u.is_admin = FALSE");
  const whereSql = where.filter(Boolean).join(" AND ");
  const rows = userRows();
  app
    .db()
    .newQuery(
      `SELECT ${USER_SELECT} FROM users u ${whereSql ? `WHERE ${whereSql}` : ""} ORDER BY u.created DESC, u.id DESC LIMIT {:limit} OFFSET {:offset}`,
    )
    .bind(params)
    .all(rows);

  const all = counts.all;
  const admins = counts.admins;
  const totalItems = query.role === "admins" ? admins : query.role === "users" ? all - admins : all;
  return {
    ...admin.listPage(rows.map(userView), totalItems, query),
    counts: { all, admins, users: all - admins },
  };
}

/** How much of each list the user detail shows (newest first; totals say how many exist). */
const DETAIL_LIMITS = { transactions: 20, proxies: 100, tickets: 20, orders: 20, payments: 20 };

/** The statuses of a payment whose credits were booked (lib/money/payments.js CREDITED_STATUSES). */
const CREDITED = "('paid', 'partially_refunded', 'refunded', 'disputed')";

/**
 * Everything the console's user drawer shows: profile, balance, the 20 newest ledger rows,
 * their proxies (no passwords), tickets, orders (each with whether it can be refunded) and
 * credit payments: provider ("test" moved no money, security review #13 finding 2), what
 * Stripe refunded or a dispute took (finding 4) and the money kept (the revenue rule of
 * `overview`: paid minus refunds and a lost dispute; 0 for test payments).
 * @param {CoreApp} app
 * @param {string} id
 */
function userDetail(app, id) {
  /** @type {typeof import("../money/refunds.js")} */
  const refunds = require(`${__hooks}/lib/money/refunds.js`);
  const user = findUser(app, id);
  const profile = new DynamicModel({ onboarding_completed: false, password_set: false });
  app.db().newQuery("SELECT onboarding_completed, password_set FROM users WHERE id = {:id}").bind({ id }).one(profile);

  const transactions = sql.rowsLike({
    id: "",
    type: "",
    amount_cents: 0,
    balance_after_cents: 0,
    description: "",
    reference: "",
    created: "",
  });
  app
    .db()
    .newQuery(
      `SELECT id, type, amount_cents, balance_after_cents, description, reference, created FROM transactions
       WHERE user_id = {:id} ORDER BY created DESC, id DESC LIMIT ${DETAIL_LIMITS.transactions}`,
    )
    .bind({ id })
    .all(transactions);

  const proxies = sql.rowsLike({
    id: "",
    host: "",
    port: 0,
    type: "",
    country: "",
    state: "",
    city: "",
    status: "",
    expires_at: "",
    auto_renew: false,
  });
  app
    .db()
    .newQuery(
      `SELECT id, host, port, type, country, state, city, status, expires_at, auto_renew FROM proxies
       WHERE assigned_to_user_id = {:id} ORDER BY expires_at DESC, id LIMIT ${DETAIL_LIMITS.proxies}`,
    )
    .bind({ id })
    .all(proxies);

  const tickets = sql.rowsLike({ id: "", subject: "", status: "", priority: "", created: "" });
  app
    .db()
    .newQuery(
      `SELECT id, subject, status, priority, created FROM support_tickets WHERE user_id = {:id}
       ORDER BY created DESC, id DESC LIMIT ${DETAIL_LIMITS.tickets}`,
    )
    .bind({ id })
    .all(tickets);

  const payments = sql.rowsLike({
    id: "",
    package_id: "",
    provider: "",
    status: "",
    amount_cents: 0,
    credits_cents: 0,
    bonus_cents: 0,
    currency: "",
    refunded_cents: 0,
    disputed_cents: 0,
    dispute_status: "",
    kept_cents: 0,
    failure_reason: "",
    paid_at: "",
    reversed_at: "",
    created: "",
  });
  app
    .db()
    .newQuery(
      `SELECT id, package_id, provider, status, amount_cents, credits_cents, bonus_cents, currency,
              COALESCE(refunded_cents, 0) AS refunded_cents, COALESCE(disputed_cents, 0) AS disputed_cents,
              COALESCE(dispute_status, '') AS dispute_status,
              CASE WHEN provider = 'stripe' AND status IN ${CREDITED}
                THEN MAX(0, amount_cents - COALESCE(refunded_cents, 0) - CASE WHEN dispute_status = 'lost' THEN COALESCE(disputed_cents, 0) ELSE 0 END)
                ELSE 0 END AS kept_cents,
              failure_reason, COALESCE(paid_at, '') AS paid_at, COALESCE(reversed_at, '') AS reversed_at, created
       FROM payments WHERE user_id = {:id} ORDER BY created DESC, id DESC LIMIT ${DETAIL_LIMITS.payments}`,
    )
    .bind({ id })
    .all(payments);

  const totals = new DynamicModel({ transactions: 0, proxies: 0, tickets: 0, orders: 0, payments: 0 });
  app
    .db()
    .newQuery(
      `SELECT (SELECT COUNT(*) FROM transactions WHERE user_id = {:id}) AS transactions,
              (SELECT COUNT(*) FROM proxies WHERE assigned_to_user_id = {:id}) AS proxies,
              (SELECT COUNT(*) FROM support_tickets WHERE user_id = {:id}) AS tickets,
              (SELECT COUNT(*) FROM proxy_orders WHERE user_id = {:id}) AS orders,
              (SELECT COUNT(*) FROM payments WHERE user_id = {:id}) AS payments`,
    )
    .bind({ id })
    .one(totals);

  return {
    user: { ...user, onboarding_completed: !!profile.onboarding_completed, password_set: !!profile.password_set },
    balance_cents: user.balance_cents,
    transactions: transactions.map((r) => ({ ...r })),
    proxies: proxies.map((r) => ({ ...r, auto_renew: !!r.auto_renew })),
    tickets: tickets.map((r) => ({ ...r })),
    orders: refunds.ordersWithRefundability(app, id, DETAIL_LIMITS.orders),
    payments: payments.map((r) => ({ ...r })),
    totals: {
      transactions: totals.transactions,
      proxies: totals.proxies,
      tickets: totals.tickets,
      orders: totals.orders,
      payments: totals.payments,
    },
  };
}

/**
 * Grants or removes another user's admin rights, with its audit row, in one transaction.
 * Never the caller's own flag (400); never the last admin (409); a caller whose own rights
 * were removed meanwhile is refused (403). Setting the flag it already has changes nothing
 * and writes no audit row.
 * @param {CoreApp} app
 * @param {string} adminId  the caller
 * @param {string} userId
 * @param {boolean} isAdmin
 */
function setAdmin(app, adminId, userId, isAdmin) {
  /** @type {typeof import("../audit/audit.js")} */
  const audit = require(`${__hooks}/lib/audit/audit.js`);
  if (userId === adminId) {
    throw new BadRequestError("You cannot change your own admin status.", {
      is_admin: new ValidationError("own_admin_status", "You cannot change your own admin status."),
    });
  }
  app.runInTransaction((txApp) => {
    // Read again inside the write: two admins removing each other at once cannot both win.
    const caller = new DynamicModel({ is_admin: false });
    txApp.db().newQuery("SELECT is_admin FROM users WHERE id = {:id}").bind({ id: adminId }).one(caller);
    if (!caller.is_admin) throw new ForbiddenError("You need administrator privileges to do this.");
    /** @type {core.Record} */
    let user;
    try {
      user = txApp.findRecordById("users", userId);
    } catch (_) {
      throw new NotFoundError("No user with this id.");
    }
    const before = user.getBool("is_admin");
    if (before === isAdmin) return;
    if (!isAdmin) {
      const others = new DynamicModel({ n: 0 });
      txApp.db().newQuery("SELECT COUNT(*) AS n FROM users WHERE is_admin = TRUE AND id != {:id}").bind({ id: userId }).one(others);
      if (others.n === 0) {
        throw new ApiError(409, "At least one administrator must remain: grant someone else admin rights first.", {
          is_admin: new ValidationError("last_admin", "The last administrator cannot be removed."),
        });
      }
    }
    user.set("is_admin", isAdmin);
    txApp.save(user);
    audit.writeAuditLog(txApp, {
      adminId,
      action: isAdmin ? "users.admin_grant" : "users.admin_revoke",
      targetType: "users",
      targetId: userId,
      details: { email: user.email(), is_admin: { from: before, to: isAdmin } },
    });
  });
  return findUser(app, userId);
}

module.exports = { ROLES, findUser, overview, listUsers, userDetail, setAdmin };
