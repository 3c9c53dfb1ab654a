// The crowd for `npm run bench:chat`, made in one request: customers (with their balance
// row and one open ticket each) and staff, inserted straight into SQLite by a bench-only
// route with the sender's password hash; every one gets an auth token.
export const SENDER = { email: "sender@bench.local", password: "Sender#Bench2026" };

export interface SeededCrowd {
  customers: Array<{ userId: string; balanceId: string; ticketId: string; token: string }>;
  staff: Array<{ userId: string; token: string }>;
}

/** POST /api/bench/chat-seed {customers, staff} (superuser) -> SeededCrowd. */
export const SEED_ROUTE = `routerAdd("POST", "/api/bench/chat-seed", (e) => {
  const body = e.requestInfo().body;
  const now = new DateTime().string();
  const hash = e.app.findAuthRecordByEmail("users", "${SENDER.email}").getString("password");
  const id = () => $security.randomStringWithAlphabet(15, "abcdefghijklmnopqrstuvwxyz0123456789");
  const made = { customers: [], staff: [] };
  e.app.runInTransaction((tx) => {
    const db = tx.db();
    const user = (i, admin) => {
      const userId = id();
      db.newQuery("INSERT INTO users (id, email, password, tokenKey, verified, is_admin, first_name, last_name, country, created, updated) VALUES ({:id}, {:email}, {:hash}, {:token}, TRUE, {:admin}, 'Chat', {:last}, 'Germany', {:now}, {:now})")
        .bind({ id: userId, email: (admin ? "staff" : "customer") + i + "@chat.bench.test", hash, token: id() + id(), admin, last: "Bench" + i, now }).execute();
      const balanceId = id();
      db.newQuery("INSERT INTO balances (id, user_id, balance_cents, created, updated) VALUES ({:id}, {:user}, 0, {:now}, {:now})")
        .bind({ id: balanceId, user: userId, now }).execute();
      db.newQuery("INSERT INTO affiliates (id, user_id, code, total_referrals, total_earnings_cents, pending_earnings_cents, created, updated) VALUES ({:id}, {:user}, {:code}, 0, 0, 0, {:now}, {:now})")
        .bind({ id: id(), user: userId, code: userId.slice(0, 8).toUpperCase(), now }).execute();
      return { userId, balanceId };
    };
    for (let i = 0; i < body["customers"]; i++) {
      const { userId, balanceId } = user(i, false);
      const ticketId = id();
      db.newQuery("INSERT INTO support_tickets (id, user_id, subject, priority, status, last_message_at, awaiting_reply, created, updated) VALUES ({:id}, {:user}, {:subject}, 'medium', 'open', {:now}, TRUE, {:now}, {:now})")
        .bind({ id: ticketId, user: userId, subject: "Proxies offline since this morning #" + i, now }).execute();
      made.customers.push({ userId, balanceId, ticketId });
    }
    for (let i = 0; i < body["staff"]; i++) made.staff.push(user(i, true));
  });
  const token = (userId) => e.app.findRecordById("users", userId).newAuthToken();
  return e.json(200, {
    customers: made.customers.map((c) => Object.assign(c, { token: token(c.userId) })),
    staff: made.staff.map((s) => Object.assign(s, { token: token(s.userId) })),
  });
}, $apis.requireSuperuserAuth());`;
