// The access matrix's table: per collection, how to make a row of A or B, what each caller
// may send, and the status each caller gets for list, view, create, update and delete.
import { setProxyColumns } from "../../support/shop.ts";
import { createTestUser } from "../../support/pocketbase.ts";
import { commissionFor, creditViaAdmin, orderFor, paymentFor, referralFor, type Context, type Owner, type Who } from "./access-rows.ts";

export interface CollectionSpec {
  name: string;
  /** Creates (as superuser) or finds a row that belongs to `owner`; returns its id. */
  make(ctx: Context, owner: Owner): Promise<string>;
  /** The body `who` sends when trying to create a row. Must contain a unique `marker` value. */
  createBody(ctx: Context, who: Who, marker: string): Promise<Record<string, unknown>>;
  /** Filter that finds rows created with `marker`. */
  markerFilter(marker: string): string;
  updateBody(marker: string): Record<string, unknown>;
  /** Which of the rows of A and B each caller sees in a list. */
  list: Record<Who, Owner[]>;
  /** Expected status of view/update/delete of A's row and of create, per caller. */
  view: Record<Who, number>;
  create: Record<Who, number>;
  update: Record<Who, number>;
  delete: Record<Who, number>;
}

const ALL = (status: number): Record<Who, number> => ({ anon: status, A: status, B: status, admin: status });

export const SPECS: CollectionSpec[] = [
  {
    name: "users",
    make: async (ctx, owner) => ctx.users[owner].id,
    createBody: async (_ctx, _who, marker) => ({
      email: `${marker}@test.local`,
      password: "Passw0rd#Matrix1",
      passwordConfirm: "Passw0rd#Matrix1",
      first_name: marker,
    }),
    markerFilter: (m) => `first_name = "${m}"`,
    updateBody: (m) => ({ first_name: m }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    // Admins manage users through /api/admin routes, not by editing records.
    update: { anon: 404, A: 200, B: 404, admin: 404 },
    delete: ALL(403),
  },
  {
    name: "settings",
    make: async (ctx) => (await ctx.su.collection("settings").create({ key: `matrix_${ctx.n()}`, value: "x" })).id,
    createBody: async (_ctx, _who, marker) => ({ key: `matrix_${marker}`, value: marker }),
    markerFilter: (m) => `value = "${m}"`,
    updateBody: (m) => ({ value: m }),
    list: { anon: ["A", "B"], A: ["A", "B"], B: ["A", "B"], admin: ["A", "B"] },
    view: ALL(200),
    create: { anon: 400, A: 400, B: 400, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
  {
    name: "pricing_plans",
    // A's row is an active plan, B's an inactive one.
    make: async (ctx, owner) =>
      (
        await ctx.su
          .collection("pricing_plans")
          .create({ name: `Plan ${ctx.n()}`, type: "HTTP", price_cents: 100, features: ["x"], popular: false, active: owner === "A" })
      ).id,
    createBody: async (_ctx, _who, marker) => ({ name: marker, type: "HTTP", price_cents: 100, features: ["x"], active: true }),
    markerFilter: (m) => `name = "${m}"`,
    updateBody: (m) => ({ name: m }),
    list: { anon: ["A"], A: ["A"], B: ["A"], admin: ["A", "B"] },
    view: ALL(200),
    create: { anon: 400, A: 400, B: 400, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
  {
    name: "balances",
    make: async (ctx, owner) => (await ctx.su.collection("balances").getFirstListItem(`user_id = "${ctx.users[owner].id}"`)).id,
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      balance_cents: Number(marker.replace(/\D/g, "")),
    }),
    markerFilter: (m) => `balance_cents = ${Number(m.replace(/\D/g, ""))}`,
    updateBody: () => ({ balance_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "transactions",
    make: async (ctx, owner) => creditViaAdmin(ctx, ctx.users[owner].id, 100),
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      type: "CREDIT",
      amount_cents: 100_000,
      balance_after_cents: 100_000,
      description: marker,
    }),
    markerFilter: (m) => `description = "${m}"`,
    updateBody: () => ({ amount_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "proxies",
    // Owner, status and expiry are the server's (finding 6): stock is made Available, then
    // assigned in data.db; the API create is of stock too.
    make: async (ctx, owner) => {
      const { id } = await ctx.su.collection("proxies").create({
        host: `p${ctx.n()}.test`,
        port: 8080,
        username: "u",
        password: "secret",
        type: "HTTP",
        country: "US",
        status: "AVAILABLE",
      });
      setProxyColumns(ctx.tpb, [id], {
        status: "ASSIGNED",
        assigned_to_user_id: ctx.users[owner].id,
        expires_at: "2099-01-01 00:00:00.000Z",
      });
      return id;
    },
    createBody: async (_ctx, _who, marker) => ({
      host: `${marker}.test`,
      port: 8080,
      username: "u",
      password: "p",
      type: "HTTP",
      country: "US",
      status: "AVAILABLE",
    }),
    markerFilter: (m) => `host = "${m}.test"`,
    updateBody: (m) => ({ city: m }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: { anon: 400, A: 400, B: 400, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
  {
    name: "support_tickets",
    make: async (ctx, owner) =>
      (
        await ctx.su
          .collection("support_tickets")
          .create({ user_id: ctx.users[owner].id, subject: `Ticket ${ctx.n()}`, priority: "medium", status: "open" })
      ).id,
    createBody: async (ctx, who, marker) => ({
      user_id: who === "anon" ? ctx.users.A.id : ctx.users[who].id,
      subject: marker,
      priority: "high",
      status: "open",
    }),
    markerFilter: (m) => `subject = "${m}"`,
    updateBody: (m) => ({ subject: m, status: "pending" }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: { anon: 400, A: 200, B: 200, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: ALL(403),
  },
  {
    name: "chat_messages",
    make: async (ctx, owner) => {
      const ticket = await ctx.su
        .collection("support_tickets")
        .create({ user_id: ctx.users[owner].id, subject: `Chat ${ctx.n()}`, priority: "low", status: "open" });
      return (await ctx.su.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: ctx.users[owner].id, message: "hello" }))
        .id;
    },
    // Everybody tries to write on A's open ticket.
    createBody: async (ctx, who, marker) => {
      const ticket = await ctx.su
        .collection("support_tickets")
        .create({ user_id: ctx.users.A.id, subject: `Chat ${ctx.n()}`, priority: "low", status: "open" });
      return {
        ticket_id: ticket.id,
        sender_id: who === "anon" ? ctx.users.A.id : ctx.users[who].id,
        message: marker,
        is_admin_message: who === "admin",
      };
    },
    markerFilter: (m) => `message = "${m}"`,
    updateBody: (m) => ({ message: m }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: { anon: 400, A: 200, B: 400, admin: 200 },
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "affiliates",
    make: async (ctx, owner) => (await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[owner].id}"`)).id,
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      code: marker.toUpperCase().replace(/[^A-Z0-9]/g, ""),
    }),
    markerFilter: (m) => `code = "${m.toUpperCase().replace(/[^A-Z0-9]/g, "")}"`,
    updateBody: () => ({ total_earnings_cents: 999_999, pending_earnings_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "referrals",
    // Referrals only come from a sign-up with the owner's code (the API refuses writes).
    make: async (ctx, owner) => referralFor(ctx, owner),
    createBody: async (ctx, who, marker) => {
      const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[who === "anon" ? "A" : who].id}"`);
      const referred = await createTestUser(ctx.su, { first_name: marker });
      return { affiliate_id: affiliate.id, referred_user_id: referred.id, commission_cents: 100_000, status: "paid" };
    },
    markerFilter: (m) => `referred_user_id.first_name = "${m}"`,
    updateBody: () => ({ commission_cents: 999_999, status: "paid" }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "payments",
    make: (ctx, owner) => paymentFor(ctx, owner),
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      package_id: marker,
      amount_cents: 1,
      currency: "usd",
      credits_cents: 100_000,
      provider: "test",
      status: "paid",
    }),
    markerFilter: (m) => `package_id = "${m}"`,
    updateBody: () => ({ status: "failed", credits_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "proxy_orders",
    make: (ctx, owner) => orderFor(ctx, owner),
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      kind: "purchase",
      country: marker,
      quantity: 1,
      total_cents: 1,
      status: "completed",
    }),
    markerFilter: (m) => `country = "${m}"`,
    updateBody: () => ({ status: "refunded", total_cents: 1 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "commissions",
    make: (ctx, owner) => commissionFor(ctx, owner),
    createBody: async (ctx, who, marker) => {
      const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[who === "anon" ? "A" : who].id}"`);
      return { affiliate_id: affiliate.id, referral_id: marker, payment_id: marker, amount_cents: 100_000, status: "pending" };
    },
    markerFilter: (m) => `amount_cents = 100000 && referral_id = "${m}"`,
    updateBody: () => ({ amount_cents: 999_999, status: "paid" }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "audit_logs",
    // An admin's settings change writes the row.
    make: async (ctx) => {
      const admin = await ctx.signIn(ctx.users.admin);
      const setting = await admin.collection("settings").create({ key: `audit_${ctx.n()}`, value: "v" });
      return (await ctx.su.collection("audit_logs").getFirstListItem(`target_id = "${setting.id}"`)).id;
    },
    createBody: async (ctx, who, marker) => ({
      admin_id: ctx.users[who === "anon" ? "A" : who].id,
      action: marker,
      target_type: "x",
      target_id: "y",
      details: {},
    }),
    markerFilter: (m) => `action = "${m}"`,
    updateBody: (m) => ({ action: m }),
    list: { anon: [], A: [], B: [], admin: ["A", "B"] },
    view: { anon: 404, A: 404, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "contact_messages",
    make: async (ctx) =>
      (
        await ctx.su.collection("contact_messages").create({
          name: "Sam Sender",
          email: "sam@example.com",
          subject: `Hello ${ctx.n()}`,
          message: "I would like to know more about your plans.",
          type: "general",
        })
      ).id,
    createBody: async (_ctx, _who, marker) => ({
      name: "Sam Sender",
      email: "sam@example.com",
      subject: marker,
      message: "I would like to know more about your plans.",
      type: "billing",
    }),
    markerFilter: (m) => `subject = "${m}"`,
    updateBody: (m) => ({ subject: m }),
    list: { anon: [], A: [], B: [], admin: ["A", "B"] },
    view: { anon: 404, A: 404, B: 404, admin: 200 },
    create: ALL(200),
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
];
