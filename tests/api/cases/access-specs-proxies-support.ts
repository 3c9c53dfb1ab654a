// The access matrix's rows for proxies, support tickets, chat and contact messages.
import { setProxyColumns, proxyFields } from "../../support/shop.ts";
import { ADMIN_ONLY, ADMIN_ROWS, ADMIN_WRITES, ALL, claimedId, OWN_ROWS, type CollectionSpec } from "./access-spec-kit.ts";
import type { Context } from "./access-rows.ts";

export const proxiesSpec: CollectionSpec = {
  name: "proxies",
  // Owner, status and expiry are the server's (finding 6): stock is made Available, then
  // assigned in data.db; the API create is of stock too.
  make: async (ctx, owner) => {
    const { id } = await ctx.su
      .collection("proxies")
      .create(proxyFields({ host: `p${ctx.n()}.test`, port: 8080, username: `u${ctx.n()}`, password: "Secret#Access2026" }));
    setProxyColumns(ctx.tpb, [id], {
      status: "ASSIGNED",
      assigned_to_user_id: ctx.users[owner].id,
      expires_at: "2099-01-01 00:00:00.000Z",
    });
    return id;
  },
  createBody: async (_ctx, _who, marker) =>
    proxyFields({ host: `${marker}.test`, port: 8080, username: `${marker}-u`, password: "Created#Access2026" }),
  markerFilter: (m) => `host = "${m}.test"`,
  updateBody: (m) => ({ city: m }),
  ...OWN_ROWS,
  ...ADMIN_WRITES,
};

export const supportTicketsSpec: CollectionSpec = {
  name: "support_tickets",
  make: async (ctx, owner) =>
    (
      await ctx.su
        .collection("support_tickets")
        .create({ user_id: ctx.users[owner].id, subject: `Ticket ${ctx.n()}`, priority: "medium", status: "open" })
    ).id,
  createBody: async (ctx, who, marker) => ({
    user_id: claimedId(ctx, who),
    subject: marker,
    priority: "high",
    status: "open",
  }),
  markerFilter: (m) => `subject = "${m}"`,
  updateBody: (m) => ({ subject: m, status: "pending" }),
  ...OWN_ROWS,
  create: { anon: 400, A: 200, B: 200, admin: 200 },
  update: ADMIN_ONLY(200),
  delete: ALL(403),
};

/** An open, low-priority ticket of `userId` to chat on. */
const openTicket = (ctx: Context, userId: string) =>
  ctx.su.collection("support_tickets").create({ user_id: userId, subject: `Chat ${ctx.n()}`, priority: "low", status: "open" });

export const chatMessagesSpec: CollectionSpec = {
  name: "chat_messages",
  make: async (ctx, owner) => {
    const ticket = await openTicket(ctx, ctx.users[owner].id);
    return (await ctx.su.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: ctx.users[owner].id, message: "hello" })).id;
  },
  // Everybody tries to write on A's open ticket.
  createBody: async (ctx, who, marker) => {
    const ticket = await openTicket(ctx, ctx.users.A.id);
    return {
      ticket_id: ticket.id,
      sender_id: claimedId(ctx, who),
      message: marker,
      is_admin_message: who === "admin",
    };
  },
  markerFilter: (m) => `message = "${m}"`,
  updateBody: (m) => ({ message: m }),
  ...OWN_ROWS,
  create: { anon: 400, A: 200, B: 400, admin: 200 },
  update: ALL(403),
  delete: ALL(403),
};

export const contactMessagesSpec: CollectionSpec = {
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
  ...ADMIN_ROWS,
  create: ALL(200),
  update: ADMIN_ONLY(200),
  delete: ADMIN_ONLY(204),
};
